#!/usr/bin/env python3
"""Speed and output-identity checks for `oclc check`.

  check_speed.py time OCLC [--runs 5] [--show 12]
      Times every clang-sema corpus configuration (the files and flags clang-parity uses) RUNS
      times, as clang-parity does (Python subprocess.run), and prints the total of the medians,
      the total of the minima and the slowest configurations; also `/bin/true` and
      `OCLC --version` per invocation, for the process-start floor.

  check_speed.py versus-clang OCLC [--runs 3] [--clang clang-19]
      clang-19 (clang-parity's command) and `oclc check` on every clang-sema configuration,
      alternately, each timed three ways: as clang-parity times it (`subprocess.run` with a
      timeout), with a blocking wait, and whether the child was still running when its pipes
      closed. With a timeout, Python's `Popen.wait` polls: a child not yet reaped when its output
      ends costs a 1 ms sleep, the same for both tools, so short runs pay it in proportion.
      Prints both totals and the clang/oclc ratio of each.

  check_speed.py compare OLD NEW [--jobs N]
      Runs both binaries on every corpus configuration (plain, -verify and --format json) and
      on every CTS kernel (under CL3.0, CL2.0, CL1.2, CL3.0 for spir64, json) and on the
      repository's own .cl files, and compares stdout, stderr and exit status byte for byte.
      Prints each difference and exits 1 if there is any.

  check_speed.py instructions OCLC [FILE] [--corpus]
      Instructions per invocation under valgrind's callgrind (`oclc --version` and `oclc check`
      on FILE, by default the corpus's smallest file); with --corpus also their total over every
      clang-sema configuration.

The corpus lives in /work/shared/conformance (override with --conformance DIR); clang-parity's
configuration parsing is imported from its tools/ folder.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.machinery import SourceFileLoader

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_parity(conf):
    tool = os.path.join(os.path.dirname(conf.rstrip('/')), 'tools', 'clang-parity')
    if not os.path.exists(tool):
        sys.exit(f'check_speed: cannot find clang-parity at {tool}')
    return SourceFileLoader('clang_parity', tool).load_module()


def corpus_configs(cp, conf, default_flags='-cl-std=CL3.0 -cl-ext=+all', with_clang=False):
    """(file, oclc args, verify flags) for every clang-sema configuration, in clang-parity's order;
    with_clang: (file, oclc args, clang args) instead."""
    out = []
    for f in sorted(glob.glob(os.path.join(conf, 'clang-sema', '*.cl'))):
        for _label, args in cp.configs(f, default_flags):
            cargs, oargs = cp.split_args(args)
            verify = [a for a in args if a.startswith('-verify')]
            out.append((f, oargs, cargs if with_clang else verify))
    return out


def time_one(cmd, runs):
    """(min wall ms, median wall ms, median child cpu ms): cpu time (user + system, from
    getrusage) is far less sensitive than wall time to other load on the machine."""
    ts, cpu = [], []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        s = time.perf_counter()
        subprocess.run(cmd, capture_output=True, text=True)
        ts.append(time.perf_counter() - s)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return min(ts) * 1000, statistics.median(ts) * 1000, statistics.median(cpu) * 1000


def cmd_time(o):
    cp = load_parity(o.conformance)
    oclc = os.path.abspath(o.oclc)
    rows = []
    for f, oargs, _ in corpus_configs(cp, o.conformance):
        mn, med, cpu = time_one([oclc, 'check'] + oargs + [f], o.runs)
        rows.append((med, mn, cpu, os.path.basename(f), ' '.join(oargs)))
    n = len(rows)
    t_true = time_one(['/bin/true'], 50)
    t_ver = time_one([oclc, '--version'], 50)
    tot_med = sum(r[0] for r in rows)
    tot_min = sum(r[1] for r in rows)
    print(f'{n} configurations x {o.runs} runs')
    tot_cpu = sum(r[2] for r in rows)
    print(f'total median ms {tot_med:.1f}   min-sum {tot_min:.1f}   per invocation {tot_med / n:.2f} ms'
          f'   cpu (user+sys) median-sum {tot_cpu:.1f} ms')
    for name, t in (('/bin/true', t_true), ('oclc --version', t_ver)):
        print(f'{name}: {t[1]:.2f} ms (min {t[0]:.2f}, cpu {t[2]:.2f})')
    if o.show > 0:
        print('slowest: median  min  cpu  (ms)')
    for r in sorted(rows, reverse=True)[:o.show]:
        print('%.2f %.2f %.2f %s %s' % r)


def parity_style(cmd):
    """Seconds, as clang-parity's `run` measures them (a timeout makes `wait` poll)."""
    s = time.perf_counter()
    subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return time.perf_counter() - s


def blocking(cmd):
    """Seconds until the child is reaped, with a blocking `waitpid` (no polling)."""
    s = time.perf_counter()
    subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - s


def still_running_at_eof(cmd):
    """Whether the child could not yet be reaped the moment its output ended."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    p.stdout.read()
    pid, status = os.waitpid(p.pid, os.WNOHANG)
    if pid == 0:
        _, status = os.waitpid(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stdout.close()
    return pid == 0


def cmd_versus_clang(o):
    cp = load_parity(o.conformance)
    oclc = os.path.abspath(o.oclc)
    resdir = subprocess.run([o.clang, '-print-resource-dir'], capture_output=True, text=True).stdout.strip()
    tools = ('clang', 'oclc')
    polled = {t: 0.0 for t in tools}
    waited = {t: 0.0 for t in tools}
    late = {t: 0 for t in tools}
    n = 0
    for f, oargs, cargs in corpus_configs(cp, o.conformance, with_clang=True):
        cmds = {
            'clang': [o.clang, '-cc1', '-resource-dir', resdir]
            + [a for a in cargs if a != '-fsyntax-only'] + ['-fsyntax-only', f],
            'oclc': [oclc, 'check'] + oargs + [f],
        }
        samples = {t: ([], []) for t in tools}
        for _ in range(o.runs):
            for t in tools:
                samples[t][0].append(parity_style(cmds[t]))
                samples[t][1].append(blocking(cmds[t]))
                late[t] += still_running_at_eof(cmds[t])
        for t in tools:
            polled[t] += statistics.median(samples[t][0])
            waited[t] += statistics.median(samples[t][1])
        n += 1
    runs = n * o.runs
    print(f'{n} configurations x {o.runs} runs (sums of per-configuration medians)')
    for name, d in (('as clang-parity times (wait polls)', polled), ('blocking wait', waited)):
        print(f'{name}: clang {d["clang"]:.3f} s, oclc {d["oclc"]:.3f} s'
              f' (clang/oclc {d["clang"] / d["oclc"]:.1f}x)')
    print(f'not yet reaped when output ended: clang {late["clang"]}/{runs}, oclc {late["oclc"]}/{runs}')


def cts_files(conf):
    return sorted(glob.glob(os.path.join(conf, 'cts-generic', '**', '*.cl'), recursive=True))


def repo_files():
    out = []
    for root, dirs, names in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in ('target', '.git')]
        out += [os.path.join(root, n) for n in names if n.endswith('.cl')]
    return sorted(out)


def compare_jobs(o):
    cp = load_parity(o.conformance)
    jobs = []
    for f, oargs, verify in corpus_configs(cp, o.conformance):
        jobs.append(oargs + [f])
        jobs.append(oargs + ['--format', 'json', f])
        if verify:
            jobs.append(oargs + verify + [f])
    variants = [['-cl-std=CL3.0'], ['-cl-std=CL2.0'], ['-cl-std=CL1.2'],
                ['-cl-std=CL3.0', '-triple', 'spir64'], ['-cl-std=CL3.0', '--format', 'json']]
    for f in cts_files(o.conformance):
        for v in variants:
            jobs.append(v + [f])
    for f in repo_files():
        jobs.append(['-cl-std=CL2.0', f])
        jobs.append(['-cl-std=CL3.0', '-cl-ext=+all', '-Wall', f])
    # Several files at once (the parallel path) and standard input.
    ctsf = cts_files(o.conformance)
    if len(ctsf) >= 3:
        jobs.append(['-cl-std=CL3.0'] + ctsf[:3])
    return jobs


def run_check(oclc, args, stdin_bytes=None):
    p = subprocess.run([oclc, 'check'] + args, capture_output=True, input=stdin_bytes)
    return p.returncode, p.stdout, p.stderr


def cmd_compare(o):
    old, new = os.path.abspath(o.old), os.path.abspath(o.new)
    jobs = compare_jobs(o)
    diffs = 0

    def both(args):
        return args, run_check(old, args), run_check(new, args)

    with concurrent.futures.ThreadPoolExecutor(max_workers=o.jobs) as ex:
        for args, a, b in ex.map(both, jobs):
            if a != b:
                diffs += 1
                print('DIFFERS: oclc check ' + ' '.join(args))
                for what, x, y in (('exit', a[0], b[0]), ('stdout', a[1], b[1]), ('stderr', a[2], b[2])):
                    if x != y:
                        print(f'  {what}:\n--- old\n{x if isinstance(x, int) else x.decode(errors="replace")}'
                              f'\n--- new\n{y if isinstance(y, int) else y.decode(errors="replace")}')
    # Standard input, once.
    src = b'kernel void k(global int *p) { p[0] = undeclared; }\n'
    if run_check(old, ['-'], src) != run_check(new, ['-'], src):
        diffs += 1
        print('DIFFERS: oclc check - (standard input)')
    print(f'{len(jobs) + 1} invocations compared, {diffs} differ')
    return 1 if diffs else 0


def callgrind_ir(cmd):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'cg.out')
        p = subprocess.run(['valgrind', '--tool=callgrind', f'--callgrind-out-file={out}'] + cmd,
                           capture_output=True, text=True)
        m = re.search(r'Collected : (\d+)', p.stderr)
        return int(m.group(1)) if m else None


def cmd_instructions(o):
    oclc = os.path.abspath(o.oclc)
    f = o.file
    if f is None:
        files = glob.glob(os.path.join(o.conformance, 'clang-sema', '*.cl'))
        f = min(files, key=os.path.getsize)
    print(f'oclc --version: {callgrind_ir([oclc, "--version"]):,} instructions')
    print(f'oclc check -cl-std=CL3.0 {os.path.basename(f)}: '
          f'{callgrind_ir([oclc, "check", "-cl-std=CL3.0", f]):,} instructions')
    if o.corpus:
        cp = load_parity(o.conformance)
        total = sum(callgrind_ir([oclc, 'check'] + args + [cf]) or 0
                    for cf, args, _verify in corpus_configs(cp, o.conformance))
        print(f'the clang-sema corpus (every configuration, one run each): {total:,} instructions')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--conformance', default='/work/shared/conformance')
    sub = ap.add_subparsers(dest='cmd', required=True)
    t = sub.add_parser('time')
    t.add_argument('oclc')
    t.add_argument('--runs', type=int, default=5)
    t.add_argument('--show', type=int, default=12)
    v = sub.add_parser('versus-clang')
    v.add_argument('oclc')
    v.add_argument('--runs', type=int, default=3)
    v.add_argument('--clang', default='clang-19')
    c = sub.add_parser('compare')
    c.add_argument('old')
    c.add_argument('new')
    c.add_argument('--jobs', type=int, default=2)
    i = sub.add_parser('instructions')
    i.add_argument('oclc')
    i.add_argument('file', nargs='?')
    i.add_argument('--corpus', action='store_true', help='also the total over the clang-sema corpus')
    o = ap.parse_args()
    if o.cmd == 'time':
        cmd_time(o)
    elif o.cmd == 'versus-clang':
        cmd_versus_clang(o)
    elif o.cmd == 'compare':
        sys.exit(cmd_compare(o))
    else:
        cmd_instructions(o)


if __name__ == '__main__':
    main()

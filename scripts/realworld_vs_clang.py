#!/usr/bin/env python3
"""Real-world corpus comparison: clang-19 -fsyntax-only vs `oclc check`, same flags each side.

The corpus is public OpenCL projects fetched outside the repository (never committed), one
folder per project named OWNER+NAME under $OCLC_RW_SRC (default /tmp/rw/src): every `.cl` file
below it is checked, with the include paths and -D flags its host program passes (hashcat,
john and sgminer need theirs; see project_flags). The 2026-11-26 corpus: GNOME/gegl,
LuxCoreRender/LuxCore, abduld/Parboil, arrayfire/arrayfire, bulletphysics/bullet3,
clMathLibraries/clSPARSE, ethereum-mining/ethminer, fireice-uk/xmr-stak, gromacs/gromacs,
hashcat/hashcat, krrishnarraj/clpeak, mirror/x264, opencv/opencv_contrib, openmm/openmm,
openwall/john, pocl/pocl, samr7/vanitygen, sgminer-dev/sgminer, ufo-kit/ufo-filters,
vetter/shoc, xmrig/xmrig, yuhc/gpu-rodinia (2 291 files).

usage: realworld_vs_clang.py [--oclc PATH] [--only PROJ[,PROJ]] [--match SUBSTR] [-j N]
                  [--json OUT] [--time] [--limit N] [--show N]
Classifies every file: both clean / both reject (first error agrees or not) / false positive
(clang clean, oclc rejects) / false negative / crash / timeout, and reports times.
With --time, runs sequentially (-j ignored) and records wall + cpu per file for each tool.
"""
import argparse, json, os, re, resource, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

SRC = os.environ.get('OCLC_RW_SRC', '/tmp/rw/src')
OCLC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'target', 'release', 'oclc')
CLANG = 'clang-19'
DIAG = re.compile(r'^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|fatal error): (?P<msg>.*)$')

HC = f'{SRC}/hashcat+hashcat'
HASHCAT = ['-D', 'KERNEL_STATIC', '-D', f'INCLUDE_PATH={HC}/OpenCL', '-D', 'XM2S(x)=#x',
           '-D', 'M2S(x)=XM2S(x)', '-I', f'{HC}/OpenCL', '-D', 'VECT_SIZE=1', '-D', 'DGST_R0=0',
           '-D', 'DGST_R1=3', '-D', 'DGST_R2=2', '-D', 'DGST_R3=1', '-D', 'DGST_ELEM=4',
           '-D', 'KERN_TYPE=0', '-D', 'ATTACK_EXEC=11', '-D', 'ATTACK_KERN=0', '-D', 'ATTACK_MODE=0',
           '-D', 'VENDOR_ID=1', '-D', 'DEVICE_TYPE=4', '-D', 'LOCAL_MEM_TYPE=1', '-D', 'CUDA_ARCH=0',
           '-D', 'MAX_THREADS_PER_BLOCK=256']
JOHN = ['-I', f'{SRC}/openwall+john/run/opencl', '-D_OPENCL_COMPILER', '-D__GPU__',
        '-DDEVICE_INFO=10', '-D__SIZEOF_HOST_SIZE_T__=8']

EXTRA = os.environ.get('RW_EXTRA', '').split()

def project_flags(proj, path):
    return EXTRA + _project_flags(proj, path)

def _project_flags(proj, path):
    d = os.path.dirname(path)
    if proj == 'hashcat+hashcat':
        return HASHCAT
    if proj == 'openwall+john':
        return JOHN
    if proj == 'sgminer-dev+sgminer':
        return ['-I', d, '-D', 'WORKSIZE=256', '-D', 'LOOKUP_GAP=2', '-D', 'CONCURRENT_THREADS=8192',
                '-D', 'NFACTOR=10', '-D', 'MAX_GLOBAL_THREADS=65536', '-D', 'SPH_COMPACT_BLAKE_64=0',
                '-D', 'SPH_LUFFA_PARALLEL=0', '-D', 'SPH_KECCAK_UNROLL=0', '-D', 'SPH_HAMSI_EXPAND_BIG=4',
                '-D', 'SPH_HAMSI_SHORT=0']
    if proj == 'hughperkins+DeepCL':
        # the host program passes every layer dimension as -DgName=value
        g = dict(gOutputSize=8, gInputSize=10, gHalfFilterSize=1, gFilterSize=3, gFilterSizeSquared=9,
                 gInputPlanes=4, gOutputSizeSquared=64, gInputSizeSquared=100, gNumFilters=8, gMargin=1,
                 gPadZeros=1, gEven=0, gNumInputPlanes=4, gPoolingSize=2, gNumPlanes=4, gInPerBlock=4,
                 gWorkgroupSize=64, gOutputStripeSize=16, gInputStripeOuterSize=32, gInputStripeInnerSize=16,
                 gPixelsPerThread=2, gOutputStripeNumRows=2, gNumStripes=4, gInputStripeMarginSize=8,
                 gInputStripeInnerNumRows=2, gInputStripeOuterNumRows=4, gInputStripeMarginRows=1, gStride=1,
                 gSize=8, gPadding=1, gOutPerBlock=4, gNumOutputPlanes=8, gColSize=8)
        return ['-I', d, '-I', f'{SRC}/{proj}'] + [f'-D{k}={v}' for k, v in g.items()]
    if proj == 'llvm-mirror+libclc':
        return ['-I', d, '-I', f'{SRC}/{proj}/generic/include']
    if proj == 'clMathLibraries+clRNG':
        return ['-I', d, '-I', f'{SRC}/{proj}/src/include']
    return ['-I', d]

def corpus(only=None, match=None):
    out = []
    for proj in sorted(os.listdir(SRC)):
        if only and not any(s.lower() in proj.lower() for s in only):
            continue
        for root, _, names in os.walk(f'{SRC}/{proj}'):
            for n in sorted(names):
                if n.endswith('.cl'):
                    p = os.path.join(root, n)
                    if match and match not in p:
                        continue
                    out.append((proj, p))
    out.sort()
    return out

def run(cmd, timeout=60):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, errors='replace')
        rc, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, out = 124, 'timeout'
    w = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return rc, out, w, cpu

def first_error(out):
    for line in out.splitlines():
        m = DIAG.match(line)
        if m and m.group('sev') in ('error', 'fatal error'):
            return (os.path.basename(m.group('file')), int(m.group('line')), int(m.group('col')),
                    ' '.join(m.group('msg').split()))
    return None

def check(item, oclc, timed):
    proj, path = item
    flags = project_flags(proj, path)
    ccmd = [CLANG, '-cc1', '-triple', 'spir64-unknown-unknown', '-finclude-default-header',
            '-fsyntax-only'] + flags + [path]
    ocmd = [oclc, 'check', '-triple', 'spir64-unknown-unknown', '-finclude-default-header'] + flags + [path]
    crc, cout, cw, cc = run(ccmd)
    orc, oout, ow, oc = run(ocmd)
    cerr = crc != 0
    crash = orc not in (0, 1)
    oerr = orc != 0
    if orc == 124:
        cls = 'timeout'
    elif crash:
        cls = 'crash'
    elif not cerr and not oerr:
        cls = 'both_clean'
    elif cerr and oerr:
        cls = 'both_reject'
    elif not cerr:
        cls = 'false_pos'
    else:
        cls = 'false_neg'
    cf, of = first_error(cout), first_error(oout)
    return dict(proj=proj, path=path, cls=cls, crc=crc, orc=orc, cfirst=cf, ofirst=of,
                first_same=(cf == of), first_line_same=(cf and of and cf[:2] == of[:2]),
                cwall=cw, owall=ow, ccpu=cc, ocpu=oc,
                cout=cout[-3000:] if cls != 'both_clean' else '',
                oout=oout[-3000:] if cls != 'both_clean' else '')

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--oclc', default=OCLC)
    ap.add_argument('--only')
    ap.add_argument('--match')
    ap.add_argument('-j', type=int, default=1)
    ap.add_argument('--json', default='/tmp/realworld_vs_clang.json')
    ap.add_argument('--time', action='store_true')
    ap.add_argument('--limit', type=int)
    ap.add_argument('--show', type=int, default=0)
    o = ap.parse_args()
    items = corpus(o.only.split(',') if o.only else None, o.match)
    if o.limit:
        items = items[:o.limit]
    if o.time or o.j == 1:
        rows = [check(i, o.oclc, True) for i in items]
    else:
        with ThreadPoolExecutor(o.j) as ex:
            rows = list(ex.map(lambda i: check(i, o.oclc, False), items))
    json.dump(rows, open(o.json, 'w'), indent=0)
    report(rows, o.show)

def report(rows, show=0):
    projs = sorted({r['proj'] for r in rows})
    classes = ['both_clean', 'both_reject', 'false_pos', 'false_neg', 'crash', 'timeout']
    print(f"{'project':28} {'files':>5} {'clean':>5} {'rej':>5} {'1st=':>5} {'line=':>5} {'FP':>4} {'FN':>4} {'crash':>5}"
          f" {'clang s':>8} {'oclc s':>8} {'ratio':>6} {'cpu-ratio':>9} {'worst':>6}")
    def line(name, rs):
        n = {c: sum(r['cls'] == c for r in rs) for c in classes}
        fs = sum(1 for r in rs if r['cls'] == 'both_reject' and r['first_same'])
        fl = sum(1 for r in rs if r['cls'] == 'both_reject' and r['first_line_same'])
        cw = sum(r['cwall'] for r in rs); ow = sum(r['owall'] for r in rs)
        cc = sum(r['ccpu'] for r in rs); oc = sum(r['ocpu'] for r in rs)
        worst = min((r['cwall'] / r['owall'] for r in rs if r['owall'] > 0), default=0)
        print(f"{name:28} {len(rs):5} {n['both_clean']:5} {n['both_reject']:5} {fs:5} {fl:5} {n['false_pos']:4}"
              f" {n['false_neg']:4} {n['crash'] + n['timeout']:5} {cw:8.2f} {ow:8.2f} {cw / ow if ow else 0:6.2f}"
              f" {cc / oc if oc else 0:9.2f} {worst:6.2f}")
    for p in projs:
        line(p, [r for r in rows if r['proj'] == p])
    line('TOTAL', rows)
    slow = sorted(rows, key=lambda r: r['cwall'] / max(r['owall'], 1e-9))[:5]
    print('slowest relative to clang:')
    for r in slow:
        print(f"  {r['cwall']:.3f} clang vs {r['owall']:.3f} oclc  {os.path.relpath(r['path'], SRC)}")
    shown = 0
    for r in rows:
        if r['cls'] in ('false_pos', 'false_neg', 'crash', 'timeout') and shown < show:
            shown += 1
            print(f"== {r['cls']} {os.path.relpath(r['path'], SRC)}\n  clang: {r['cfirst']}\n  oclc:  {r['ofirst']}")

if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] == '--report':
        report(json.load(open(sys.argv[2])), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    else:
        main()

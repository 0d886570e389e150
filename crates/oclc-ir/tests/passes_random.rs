//! Differential testing: generated OpenCL C kernels whose generic pointers merge global,
//! local and private memory through branches, selects, loops and helper calls give the same
//! buffers with and without the passes on the cpu device.

mod passes_util;

use oclc_ir::passes::{PassOptions, run_default};
use oclc_ir::verify_module;
use oclc_lower::{LowerOptions, lower_with};
use oclc_syntax::pp::{self, PpOptions};
use oclc_syntax::{ClStd, Diagnostics, LangOptions, SourceMap};
use passes_util::{A, launch};

/// A small deterministic generator (64-bit LCG).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

const PTRS: &[&str] = &["Gp", "Lp", "Pp", "p", "q", "r"];

fn ptr_expr(rng: &mut Rng, depth: u32) -> String {
    match if depth > 1 { 0 } else { rng.below(4) } {
        0 | 1 => rng.pick(PTRS).to_string(),
        2 => format!(
            "({} ? {} : {})",
            cond(rng),
            ptr_expr(rng, depth + 1),
            ptr_expr(rng, depth + 1)
        ),
        _ => format!(
            "pick({}, {}, {})",
            ptr_expr(rng, depth + 1),
            ptr_expr(rng, depth + 1),
            cond(rng)
        ),
    }
}

fn cond(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => format!("(gid % {} == {})", rng.below(3) + 2, rng.below(2)),
        1 => format!("((acc >> {}) & 1)", rng.below(4)),
        _ => format!("(lid < {})", rng.below(8)),
    }
}

fn statement(rng: &mut Rng, depth: u32) -> String {
    let v = rng.pick(&["p", "q", "r"]);
    match rng.below(if depth > 1 { 6 } else { 12 }) {
        0 => format!("{v} = {};", ptr_expr(rng, 0)),
        1 => format!("acc += {}[(acc + {}) & 7];", ptr_expr(rng, 0), rng.below(8)),
        2 => format!("{}[{}] = acc;", ptr_expr(rng, 0), rng.below(8)),
        3 => format!("acc += get(({}), {});", ptr_expr(rng, 0), rng.below(8)),
        4 => format!(
            "put({}, acc + {}, {});",
            ptr_expr(rng, 0),
            rng.below(8),
            rng.below(50)
        ),
        5 => format!(
            "acc = acc * 3 + (to_global({v}) != 0) + 2 * (to_local({v}) != 0) + 4 * (int)get_fence({v});"
        ),
        6 => format!(
            "if ({}) {{ {} }} else {{ {} }}",
            cond(rng),
            statement(rng, depth + 1),
            statement(rng, depth + 1)
        ),
        7 => format!(
            "for (int j = 0; j < 3; j++) {{ {} {} }}",
            statement(rng, depth + 1),
            statement(rng, depth + 1)
        ),
        8 => format!(
            "{{ int *t = {}; acc += *t; t = {v}; {v} = t; }}",
            ptr_expr(rng, 0)
        ),
        9 => format!(
            "{{ struct S s = {{ {}, acc }}; acc += s.p[s.n & 7]; s.p = {v}; {v} = s.p; }}",
            ptr_expr(rng, 0)
        ),
        10 => format!("{v} = (int *)(ulong)({});", ptr_expr(rng, 0)),
        _ => format!(
            "{{ int *arr[2] = {{ {}, {} }}; acc += arr[acc & 1][{}]; }}",
            ptr_expr(rng, 0),
            ptr_expr(rng, 0),
            rng.below(8)
        ),
    }
}

fn program(seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut body = String::new();
    for _ in 0..6 {
        body += "    ";
        body += &statement(&mut rng, 0);
        body += "\n";
    }
    format!(
        r#"struct S {{ int *p; int n; }};
int *pick(int *a, int *b, int c) {{ return c ? a : b; }}
int get(int *a, int i) {{ return a[i & 7] + 1; }}
void put(int *a, int i, int v) {{ a[i & 7] = v; }}

kernel void k(global int *g, local int *l, global int *out)
{{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    global int *G = g + gid * 8;
    local int *L = l + lid * 8;
    int P[8];
    for (int i = 0; i < 8; i++) {{ L[i] = i * 3 + lid; P[i] = i * 5 + gid; }}
    int acc = gid;
    int *Gp = G, *Lp = L, *Pp = P;
    int *p = G, *q = L, *r = P;
{body}    out[gid] = acc + P[acc & 7] + L[(acc >> 3) & 7];
}}
"#
    )
}

fn compile(src: &str, all_in_memory: bool) -> oclc_ir::Module {
    let lang = LangOptions::new(ClStd::Cl20);
    let mut sm = SourceMap::new();
    let main = sm.add_text("gen.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let opts = PpOptions {
        lang: lang.clone(),
        macros: vec![],
        include_dirs: vec![],
    };
    let out = pp::preprocess(&mut sm, main, &opts, &mut diags);
    let tu = oclc_syntax::parse::parse(&out, &sm, &lang, &mut diags);
    let program = oclc_sema::check(&tu, &sm, &lang, &mut diags);
    assert!(!diags.has_errors(), "{src}\n{:?}", diags.list);
    lower_with(&program, &sm, &mut diags, LowerOptions { all_in_memory })
        .unwrap_or_else(|| panic!("{src}\n{:?}", diags.list))
}

#[test]
fn generated_kernels_keep_their_results() {
    let mut split = 0;
    for seed in 1..=100u64 {
        let src = program(seed);
        // Odd seeds keep every variable in memory, so mem2reg does all the SSA construction.
        let m = compile(&src, seed % 2 == 1);
        let mut opt = m.clone();
        let r = run_default(&mut opt, &PassOptions::default());
        assert!(r.verify_errors.is_empty(), "{src}\n{:?}", r.verify_errors);
        verify_module(&opt).unwrap_or_else(|e| panic!("{src}\n{e:?}"));
        split += r.versioned;
        let g: Vec<u8> = (0..128i32).flat_map(|x| (x * 7).to_le_bytes()).collect();
        let args = [A::Buf(g), A::Local(8 * 8 * 4), A::Buf(vec![0; 64])];
        let plain = launch(m, "k", &args, 16, 8);
        let fast = launch(opt, "k", &args, 16, 8);
        assert_eq!(plain, fast, "seed {seed}:\n{src}");
    }
    assert!(split > 0, "no generated access was split by space");
}

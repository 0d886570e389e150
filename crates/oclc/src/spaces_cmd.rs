//! `oclc spaces FILE [FLAGS]`: where every generic pointer of the source points (or why it
//! stays generic), generic memory accesses per kernel before and after the passes, and the
//! compile-time warnings for casts that can never succeed, which `oclc check` also prints
//! (through [`cast_warnings`]).

use oclc_ir::passes::{
    self, CastKind, ImpossibleCast, PassOptions, SourcePath, SpacesReport, Step,
};
use oclc_ir::types::AddrSpace;
use oclc_lower::LowerOptions;
use oclc_sema::hir::{self, Expr, ExprKind, Init, Stmt, StmtKind};
use oclc_sema::types::QualType;
use oclc_syntax::{Diagnostic, Diagnostics, LangOptions, Level, SourceMap, Span};

use crate::args::{Format, parse_check_args};
use crate::check::check_source;
use crate::cli::CliOutput;
use crate::render;

/// `oclc spaces --help`.
pub const SPACES_HELP: &str = "\
Usage: oclc spaces [FLAGS] FILE

Reports, for every kernel and function of FILE ('-' for standard input), each generic pointer
declared in the source with the address space it resolves to, or why it stays generic (each
reason with its line); then the generic memory accesses of each kernel (and the functions it
calls) before and after the address-space passes. Warns about casts from generic pointers
(explicit casts and to_global/to_local/to_private) that can never succeed.

FLAGS are those of 'oclc check' (-cl-std=, -D, -U, -I, -W...), plus:
  --format text|json   the report as text (default) or as one JSON object
  -O0, -cl-opt-disable the passes off: only the access counts, unchanged
  -O1                  no per-space versioning of accesses through merged pointers

Diagnostics go to standard error, the report to standard output.
Exit status: 0 on success, 1 when the source has errors (no report is printed then).
";

/// Runs `oclc spaces ARGS`; `stdin` is read when the file is `-`.
pub fn spaces_command(args: Vec<String>, stdin: &mut dyn std::io::Read) -> CliOutput {
    let mut out = CliOutput::default();
    let error = |out: &mut CliOutput, msg: String| {
        out.stderr.push_str(&format!("oclc: error: {msg}\n"));
        out.code = 1;
    };
    let mut opt_flags = Vec::new();
    let mut rest = Vec::new();
    for a in args {
        if a == "-cl-opt-disable" || (a.starts_with("-O") && a.len() <= 6) {
            opt_flags.push(a);
        } else {
            rest.push(a);
        }
    }
    let parsed = match parse_check_args(rest) {
        Ok(p) => p,
        Err(e) => {
            error(&mut out, e.0);
            return out;
        }
    };
    if parsed.help {
        out.stdout.push_str(SPACES_HELP);
        return out;
    }
    if parsed.options.verify.is_some() {
        error(&mut out, "-verify is not an 'oclc spaces' option".into());
        return out;
    }
    let pass_opts = PassOptions::from_flags(opt_flags.iter().map(String::as_str));
    let file = match parsed.files.as_slice() {
        [f] => f.clone(),
        [] => {
            error(&mut out, "no input files".into());
            return out;
        }
        _ => {
            error(&mut out, "oclc spaces takes one input file".into());
            return out;
        }
    };
    let read = oclc_syntax::source::max_source_bytes_from_env()
        .and_then(|limit| crate::cli::read_input(&file, stdin, limit));
    let (name, bytes) = match read {
        Ok(x) => x,
        Err(e) => {
            error(&mut out, e);
            return out;
        }
    };

    // The cast warnings come with the check's diagnostics (`check_source` adds them).
    let outcome = check_source(&name, &bytes, &parsed.options);
    out.stderr.push_str(&outcome.render_text());
    let Some(program) = outcome.program.as_ref().filter(|_| !outcome.has_errors()) else {
        out.code = 1;
        return out;
    };
    let mut diags = Diagnostics::default();
    let lowered = oclc_lower::lower_with(
        program,
        &outcome.sm,
        &mut diags,
        LowerOptions {
            all_in_memory: true,
        },
    );
    let lower_diags = parsed.options.warnings.apply_all(diags.list);
    out.stderr
        .push_str(&render::render_text(&outcome.sm, &lower_diags));
    let Some(mut module) = lowered.filter(|_| render::counts(&lower_diags).0 == 0) else {
        out.code = 1;
        return out;
    };
    let report = passes::run_default(&mut module, &pass_opts);
    if let Some((stage, e)) = report.verify_errors.first() {
        error(
            &mut out,
            format!("internal compiler error: IR pass '{stage}' produced invalid IR: {e}"),
        );
        return out;
    }
    let mut spaces = report.spaces;
    let sites = CastSites::new(program);
    spaces.warnings = spaces
        .impossible_casts
        .iter()
        .map(|c| warning(c, &sites, &outcome.sm))
        .collect();
    fix_declaration_lines(&mut spaces, program);
    name_fields(&mut spaces, program);
    match parsed.format {
        Format::Text => {
            if pass_opts.opt_level == 0 {
                out.stdout
                    .push_str("address-space passes off (-O0): no pointer is resolved\n");
            }
            out.stdout
                .push_str(&passes::render_text(&spaces, &outcome.sm));
        }
        Format::Json => out
            .stdout
            .push_str(&passes::render_json(&spaces, &outcome.sm)),
    }
    out
}

/// Warnings (group `address-space-cast`) for explicit generic→named casts and `to_global`/
/// `to_local`/`to_private` calls in `program` that can never succeed. Cheap when the program
/// has none (one walk of the HIR); otherwise lowers the functions that can affect the answer
/// (`oclc_lower::subset`) and runs the passes on those.
pub fn cast_warnings(
    program: &hir::Program,
    sm: &SourceMap,
    lang: &LangOptions,
) -> Vec<Diagnostic> {
    if !lang.generic_address_space() || !has_generic_casts(program) {
        return Vec::new();
    }
    let mut diags = Diagnostics::default();
    oclc_ir::par::reserve_heaps(program.functions.len() * CAST_BYTES_PER_FUNCTION);
    let Some(mut module) = oclc_lower::subset::lower_for_casts(program, sm, &mut diags) else {
        return Vec::new();
    };
    if diags.list.iter().any(|d| d.level >= Level::Error) {
        return Vec::new();
    }
    let casts = passes::casts::impossible_casts(&mut module);
    if casts.is_empty() {
        return Vec::new();
    }
    let sites = CastSites::new(program);
    casts.iter().map(|c| warning(c, &sites, sm)).collect()
}

/// Heap the cast analysis's parallel work takes per function of the program, about (reserved
/// up front: see [`oclc_syntax::heap`]).
const CAST_BYTES_PER_FUNCTION: usize = 12 << 10;

/// Whether any function body holds a generic→named cast or a `to_X` call.
fn has_generic_casts(program: &hir::Program) -> bool {
    let mut found = false;
    visit_program(program, &mut |e| {
        if matches!(
            e.kind,
            ExprKind::ToAddrSpace { .. } | ExprKind::Cast(hir::CastKind::FromGeneric(_), _)
        ) {
            found = true;
        }
        !found
    });
    found
}

/// The warning for one impossible cast, e.g. "cast from '__generic int *' to '__local int *'
/// never succeeds: the pointer always points into __global (line 12)".
fn warning(c: &ImpossibleCast, sites: &CastSites, sm: &SourceMap) -> Diagnostic {
    let actual = passes::report::space_keyword(c.actual);
    let target = passes::report::space_keyword(c.target);
    let origin_line = sm
        .location(c.origin)
        .filter(|_| !c.origin.is_dummy())
        .map_or(String::new(), |(_, l, _)| format!(" (line {l})"));
    let types = sites.types(c.span);
    let msg = match (c.kind, types) {
        (CastKind::Explicit, Some((from, to))) => format!(
            "cast from '{from}' to '{to}' never succeeds: the pointer always points into {actual}{origin_line}"
        ),
        (CastKind::Explicit, None) => format!(
            "cast from a generic pointer to a {target} pointer never succeeds: the pointer always points into {actual}{origin_line}"
        ),
        (CastKind::SpaceTest, Some((from, _))) => format!(
            "to_{}() on '{from}' always returns NULL: the pointer always points into {actual}{origin_line}",
            space_name(c.target)
        ),
        (CastKind::SpaceTest, None) => format!(
            "to_{}() always returns NULL: the pointer always points into {actual}{origin_line}",
            space_name(c.target)
        ),
    };
    Diagnostic::warning(c.span, msg)
        .with_group("address-space-cast")
        .with_note(
            c.origin,
            format!("the pointer points into {actual} from here"),
        )
}

fn space_name(s: AddrSpace) -> &'static str {
    oclc_ir::types::space_name(s)
}

/// Every explicit generic→named cast and `to_X` call of a program, in the order
/// [`visit_program`] meets them (parents first), with its operand and result types.
struct CastSites<'p> {
    program: &'p hir::Program,
    /// (span, operand type, result type) per file, in visit order.
    by_file: std::collections::HashMap<
        u32,
        Vec<(Span, oclc_sema::types::QualType, oclc_sema::types::QualType)>,
    >,
}

impl<'p> CastSites<'p> {
    fn new(program: &'p hir::Program) -> CastSites<'p> {
        let mut by_file: std::collections::HashMap<u32, Vec<_>> = Default::default();
        visit_program(program, &mut |e| {
            let operand = match &e.kind {
                ExprKind::ToAddrSpace { arg, .. } => arg,
                ExprKind::Cast(hir::CastKind::FromGeneric(_), arg) => arg,
                _ => return true,
            };
            by_file
                .entry(e.span.file.0)
                .or_default()
                .push((e.span, operand.ty, e.ty));
            true
        });
        CastSites { program, by_file }
    }

    /// The operand and result types (as clang prints them) of the cast or `to_X` at `span`:
    /// the last one met that contains it (the innermost, as parents come first).
    fn types(&self, span: Span) -> Option<(String, String)> {
        let (_, from, to) = self
            .by_file
            .get(&span.file.0)?
            .iter()
            .rev()
            .find(|(s, _, _)| s.lo <= span.lo && span.hi <= s.hi)?;
        Some((
            self.program.types.print(*from),
            self.program.types.print(*to),
        ))
    }
}

/// Reports a variable at the line of its declaration: the IR records where its slot is
/// first used, so a pointer whose declaration the HIR knows by name in the same function gets
/// that line instead.
fn fix_declaration_lines(report: &mut SpacesReport, program: &hir::Program) {
    let by_name = functions_by_name(program);
    for f in &mut report.functions {
        let Some(hf) = by_name.get(f.source_name.as_str()) else {
            continue;
        };
        let Some(body) = &hf.body else { continue };
        let mut decls: Vec<(String, Span)> = Vec::new();
        for p in &hf.params {
            if let Some(v) = program.var(*p) {
                decls.push((v.name.as_str().to_string(), v.span));
            }
        }
        collect_decls(program, &body.stmts, &mut decls, 0);
        for p in &mut f.pointers {
            // A struct field is reported as `name+offset` (`*name+offset` behind a pointer):
            // its variable is `name`.
            let var = SourcePath::from_var(&p.name).root;
            let var = var.as_str();
            let candidates: Vec<&Span> = decls
                .iter()
                .filter(|(n, s)| n == var && s.file == p.span.file && s.lo <= p.span.lo)
                .map(|(_, s)| s)
                .collect();
            // The last declaration of that name before the first use is the one in scope.
            if let Some(s) = candidates.into_iter().max_by_key(|s| s.lo) {
                p.span = *s;
            }
        }
    }
}

/// Writes the report's pointers as C expressions with the program's field names: the IR
/// knows a field by its byte offset (`a+16`), the source by its path (`a.inner.p`, `v[1].p`,
/// `s->p`, `ptrs[...]`).
fn name_fields(report: &mut SpacesReport, program: &hir::Program) {
    let by_name = functions_by_name(program);
    for f in &mut report.functions {
        let vars = var_types(program, by_name.get(f.source_name.as_str()).copied());
        let render = |p: &SourcePath| render_path(program, &vars, p);
        for p in &mut f.pointers {
            p.name = render(&SourcePath::from_var(&p.name));
        }
        for (n, _) in &mut f.specialized {
            *n = render(&SourcePath::from_var(n));
        }
        for a in &mut f.accesses {
            a.pointer = SourcePath::root(render(&a.pointer));
        }
    }
}

/// Each function by name, as [`hir::Program::function_by_name`] finds it (its definition, else
/// its last declaration), for many look-ups.
fn functions_by_name(program: &hir::Program) -> std::collections::HashMap<&str, &hir::Function> {
    let mut map: std::collections::HashMap<&str, &hir::Function> = Default::default();
    for f in &program.functions {
        let name = f.name.as_str();
        match map.get(name) {
            Some(old) if old.body.is_some() && f.body.is_none() => {}
            _ => {
                map.insert(name, f);
            }
        }
    }
    map
}

/// The variables function `hf` can name (parameters, locals, program-scope variables) with
/// their types; inner declarations last, so the last match is the innermost.
fn var_types(program: &hir::Program, hf: Option<&hir::Function>) -> Vec<(String, QualType)> {
    let mut out: Vec<(String, QualType)> = program
        .globals
        .iter()
        .filter_map(|g| program.var(*g))
        .map(|v| (v.name.as_str().to_string(), v.ty))
        .collect();
    let Some(hf) = hf else {
        return out;
    };
    for p in &hf.params {
        if let Some(v) = program.var(*p) {
            out.push((v.name.as_str().to_string(), v.ty));
        }
    }
    if let Some(body) = &hf.body {
        let mut decls = Vec::new();
        collect_decl_ids(&body.stmts, &mut decls, 0);
        out.extend(
            decls
                .into_iter()
                .filter_map(|id| program.var(id))
                .map(|v| (v.name.as_str().to_string(), v.ty)),
        );
    }
    out
}

fn collect_decl_ids(stmts: &[Stmt], out: &mut Vec<hir::VarId>, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    for s in stmts {
        if let StmtKind::Decl(v) = &s.kind {
            out.push(*v);
        }
        for_each_child_stmt(s, &mut |child| {
            collect_decl_ids(std::slice::from_ref(child), out, depth + 1)
        });
    }
}

/// `path` as a C expression, from the type of its root variable; the IR's own spelling
/// (`a+16`) when the root is no variable or the types do not match the offsets.
fn render_path(program: &hir::Program, vars: &[(String, QualType)], path: &SourcePath) -> String {
    let fallback = || path.to_string();
    let Some(&(_, ty)) = vars.iter().rev().find(|(n, _)| *n == path.root) else {
        return fallback();
    };
    let types = &program.types;
    let mut expr = path.root.clone();
    let mut t = ty;
    let mut deref = false;
    for (si, step) in path.steps.iter().enumerate() {
        let indexed_next = matches!(path.steps.get(si + 1), Some(Step::Index));
        match step {
            Step::Deref => {
                let Some(p) = types.pointee(t) else {
                    return fallback();
                };
                if deref {
                    expr = format!("(*{expr})");
                }
                deref = true;
                t = p;
            }
            Step::Index => {
                // A run-time index into the array at the start of a struct: that array.
                if !deref
                    && types.array_elem(t).is_none()
                    && types.pointee(t).is_none()
                    && descend(types, &mut expr, &mut t, &mut deref, 0, true).is_none()
                {
                    return fallback();
                }
                if deref {
                    deref = false;
                } else if let Some((e, _)) = types.array_elem(t) {
                    t = e;
                } else if let Some(p) = types.pointee(t) {
                    t = p;
                } else {
                    return fallback();
                }
                expr.push_str("[...]");
            }
            Step::Offset(o) => {
                if descend(
                    types,
                    &mut expr,
                    &mut t,
                    &mut deref,
                    u64::from(*o),
                    indexed_next,
                )
                .is_none()
                {
                    return fallback();
                }
            }
        }
    }
    // A pointer read from the start of a struct or array: its first field.
    if descend(types, &mut expr, &mut t, &mut deref, 0, false).is_none() {
        return fallback();
    }
    if deref {
        expr = format!("*{expr}");
    }
    expr
}

/// Descends from an object of type `t` to the scalar or pointer at byte `o` of it (with
/// `to_array`, to the array starting there, which a run-time index follows), naming fields and
/// constant indices on `expr` (`->` right after a pointer was followed).
fn descend(
    types: &oclc_sema::types::TypeTable,
    expr: &mut String,
    t: &mut QualType,
    deref: &mut bool,
    mut o: u64,
    to_array: bool,
) -> Option<()> {
    use oclc_sema::types::TypeKind;
    for _ in 0..MAX_DEPTH {
        if to_array && o == 0 && types.array_elem(*t).is_some() {
            return Some(());
        }
        match types.ckind(*t) {
            TypeKind::Record(id) => {
                let rec = types.record(*id)?;
                let (field, off) = rec.fields.iter().enumerate().find_map(|(k, fl)| {
                    let off = *rec.layout.offsets.get(k)?;
                    let size = types.size_of(fl.ty).unwrap_or(0).max(1);
                    (off <= o && o < off + size).then_some((fl, off))
                })?;
                match field.name {
                    Some(n) => {
                        expr.push_str(if *deref { "->" } else { "." });
                        expr.push_str(n.as_str());
                    }
                    None if *deref => *expr = format!("(*{expr})"),
                    None => {}
                }
                *deref = false;
                o -= off;
                *t = field.ty;
            }
            TypeKind::Array(e, _) => {
                let es = types.size_of(*e)?.max(1);
                if *deref {
                    *expr = format!("(*{expr})");
                    *deref = false;
                }
                expr.push_str(&format!("[{}]", o / es));
                o %= es;
                *t = *e;
            }
            _ if o == 0 => return Some(()),
            _ if *deref => {
                let es = types.size_of(*t)?.max(1);
                if !o.is_multiple_of(es) {
                    return None;
                }
                expr.push_str(&format!("[{}]", o / es));
                *deref = false;
                return Some(());
            }
            _ => return None,
        }
    }
    None
}

/// Deepest statement nesting followed (sema has limits of its own; this only bounds the walk).
const MAX_DEPTH: u32 = 512;

fn collect_decls(
    program: &hir::Program,
    stmts: &[Stmt],
    out: &mut Vec<(String, Span)>,
    depth: u32,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for s in stmts {
        for_each_child_stmt(s, &mut |child| {
            collect_decls(program, std::slice::from_ref(child), out, depth + 1)
        });
        if let StmtKind::Decl(v) = &s.kind
            && let Some(var) = program.var(*v)
        {
            out.push((var.name.as_str().to_string(), var.span));
        }
    }
}

fn for_each_child_stmt(s: &Stmt, f: &mut dyn FnMut(&Stmt)) {
    match &s.kind {
        StmtKind::Block(b) => b.stmts.iter().for_each(f),
        // An `else if` chain in a loop (its length is not nesting): each `then`, and the
        // last `else`.
        StmtKind::If { .. } => {
            for (_, then, else_) in s.if_links() {
                f(then);
                if let Some(e) = else_ {
                    f(e);
                }
            }
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::Default { body }
        | StmtKind::Label { body, .. } => f(body),
        StmtKind::For { init, body, .. } => {
            init.iter().for_each(&mut *f);
            f(body);
        }
        _ => {}
    }
}

/// Calls `visit` on every expression of every function body and local initializer, parents
/// first; `visit` returns false to stop.
fn visit_program(program: &hir::Program, visit: &mut dyn FnMut(&Expr) -> bool) {
    let mut w = Walker {
        program,
        visit,
        stop: false,
    };
    for f in &program.functions {
        if let Some(b) = &f.body {
            w.stmts(&b.stmts, 0);
        }
        if w.stop {
            return;
        }
    }
}

struct Walker<'a> {
    program: &'a hir::Program,
    visit: &'a mut dyn FnMut(&Expr) -> bool,
    stop: bool,
}

impl Walker<'_> {
    fn stmts(&mut self, stmts: &[Stmt], depth: u32) {
        for s in stmts {
            if self.stop || depth > MAX_DEPTH {
                return;
            }
            match &s.kind {
                StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e, depth),
                StmtKind::Decl(v) => {
                    if let Some(init) = self.program.var(*v).and_then(|v| v.init.as_ref()) {
                        self.init(init, depth);
                    }
                }
                StmtKind::If { .. } => {
                    // Each condition before its `then`, as recursion down the chain would.
                    for (cond, then, else_) in s.if_links() {
                        self.expr(cond, depth);
                        self.stmts(std::slice::from_ref(then), depth + 1);
                        if let Some(e) = else_ {
                            self.stmts(std::slice::from_ref(e), depth + 1);
                        }
                    }
                    continue;
                }
                StmtKind::While { cond, .. }
                | StmtKind::DoWhile { cond, .. }
                | StmtKind::Switch { cond, .. } => self.expr(cond, depth),
                StmtKind::For { cond, step, .. } => {
                    for e in [cond, step].into_iter().flatten() {
                        self.expr(e, depth);
                    }
                }
                _ => {}
            }
            for_each_child_stmt(s, &mut |c| self.stmts(std::slice::from_ref(c), depth + 1));
        }
    }

    fn init(&mut self, init: &Init, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        match init {
            Init::Expr(e) => self.expr(e, depth),
            Init::List { items, .. } => {
                for i in items.iter().flatten() {
                    self.init(i, depth + 1);
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr, depth: u32) {
        if self.stop || depth > MAX_DEPTH {
            return;
        }
        if !(self.visit)(e) {
            self.stop = true;
            return;
        }
        let d = depth + 1;
        match &e.kind {
            ExprKind::Unary(_, a)
            | ExprKind::GetFence(a)
            | ExprKind::AddrOf(a)
            | ExprKind::Deref(a)
            | ExprKind::Member { base: a, .. }
            | ExprKind::Swizzle { base: a, .. }
            | ExprKind::Cast(_, a)
            | ExprKind::ToAddrSpace { arg: a, .. } => self.expr(a, d),
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => match e.chain() {
                None => {
                    self.expr(a, d);
                    self.expr(b, d);
                }
                // A chain in a loop (its length is not nesting), in pre-order.
                Some((links, leaf)) => {
                    for l in links.iter().skip(1) {
                        if !(self.visit)(l) {
                            self.stop = true;
                            return;
                        }
                    }
                    self.expr(leaf, d);
                    for l in links.iter().rev() {
                        if let Some((_, b)) = l.link_operands() {
                            self.expr(b, d);
                        }
                    }
                }
            },
            ExprKind::Assign { lhs: a, rhs: b, .. } | ExprKind::Index { base: a, index: b } => {
                self.expr(a, d);
                self.expr(b, d);
            }
            ExprKind::Cond(a, b, c) => {
                self.expr(a, d);
                self.expr(b, d);
                self.expr(c, d);
            }
            ExprKind::Call { args, .. }
            | ExprKind::BuiltinCall { args, .. }
            | ExprKind::VectorLit(args) => {
                for a in args {
                    self.expr(a, d);
                }
            }
            ExprKind::InitList(i) => self.init(i, d),
            ExprKind::StmtExpr { body, value } => {
                self.stmts(&body.stmts, d);
                if let Some(v) = value {
                    self.expr(v, d);
                }
            }
            _ => {}
        }
    }
}

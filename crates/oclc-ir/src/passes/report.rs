//! The `oclc spaces` report: for every function and kernel, each generic pointer declared in
//! the source with the named space it resolved to, or why it stays generic; generic memory
//! accesses per kernel before and after the passes; and warnings for casts that can never
//! succeed. Text and JSON renderings take a [`SourceMap`] to print lines.

use crate::types::AddrSpace;
use oclc_syntax::{Diagnostic, SourceMap, Span};
use std::fmt::Write;

/// Why a pointer stays generic.
#[derive(Clone, Debug, PartialEq)]
pub enum GenericReason {
    /// Pointers into two spaces meet (a join of control flow, or a `?:`).
    Merge {
        first: (AddrSpace, Span),
        second: (AddrSpace, Span),
        at: Span,
    },
    /// The pointer is read from memory the analysis does not follow.
    LoadedFromMemory { at: Span },
    /// The variable holding the pointer has its address taken (it stays in memory).
    AddressEscapes { at: Span },
    /// The pointer is made from an integer.
    IntegerCast { at: Span },
    /// The pointer is returned by a call.
    ReturnedByCall { callee: String, at: Span },
    /// The pointer is written into a private variable by a function the variable is passed to.
    StoredByCall { callee: String, at: Span },
    /// The pointer points to no object the analysis knows (NULL or uninitialized).
    NoObject { at: Span },
    /// The address-space passes did not run (`-O0`).
    PassesOff,
    /// A parameter of a function that some call passes an unresolved pointer (at those calls),
    /// or that nothing calls.
    Parameter {
        function: String,
        generic_callers: Vec<Span>,
    },
}

/// What a source pointer variable resolved to.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolution {
    /// Always this named space.
    Named(AddrSpace),
    /// A different named space at different points, each resolved (first origin of each).
    PerPoint(Vec<(AddrSpace, Span)>),
    /// Stays generic, for these reasons.
    Generic(Vec<GenericReason>),
    /// Only ever NULL or unset.
    NoPointer,
}

/// One generic pointer declared in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct PointerInfo {
    pub name: String,
    /// Its declaration.
    pub span: Span,
    pub resolution: Resolution,
}

/// One step of a [`SourcePath`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// This many bytes into the object reached so far (a field, or a constant index).
    Offset(u32),
    /// An element at an index known only at run time.
    Index,
    /// The object the pointer reached so far points to.
    Deref,
}

/// A source expression naming a pointer: a variable (or a call, or a global) and the steps
/// from it, in bytes: `a` `+16` is the field of `a` at byte 16 (`a.inner.p` once the front
/// end's types name it), `ptrs` `[...]` an element of `ptrs` at a run-time index, `s` `*`
/// `+8` the field at byte 8 of what `s` points to (`s->n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourcePath {
    pub root: String,
    pub steps: Vec<Step>,
}

impl SourcePath {
    /// A path with no steps.
    pub fn root(root: impl Into<String>) -> SourcePath {
        SourcePath {
            root: root.into(),
            steps: Vec::new(),
        }
    }

    /// Parses a variable record's name: `name` or `name+offset`, where a name `*p` is what
    /// pointer `p` points to.
    pub fn from_var(name: &str) -> SourcePath {
        if let Some(inner) = name.strip_prefix('*') {
            let mut p = SourcePath::from_var(inner);
            p.steps.insert(0, Step::Deref);
            return p;
        }
        match name.rsplit_once('+') {
            Some((root, off)) if !root.is_empty() => match off.parse::<u32>() {
                Ok(o) => SourcePath {
                    root: root.to_string(),
                    steps: vec![Step::Offset(o)],
                },
                Err(_) => SourcePath::root(name),
            },
            _ => SourcePath::root(name),
        }
    }

    /// Appends a step, adding up consecutive offsets.
    pub fn push(&mut self, step: Step) {
        if let (Step::Offset(b), Some(Step::Offset(a))) = (&step, self.steps.last_mut()) {
            *a = a.saturating_add(*b);
            return;
        }
        self.steps.push(step);
    }
}

impl std::fmt::Display for SourcePath {
    /// Without types: `a+16`, `ptrs[...]`, `(*s)+8`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = self.root.clone();
        for st in &self.steps {
            match st {
                Step::Offset(o) => s = format!("{s}+{o}"),
                Step::Index => s.push_str("[...]"),
                Step::Deref => s = format!("(*{s})"),
            }
        }
        f.write_str(&s)
    }
}

/// What a generic memory access does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Load,
    Store,
    Atomic,
    /// A `memcpy` (a by-value copy) from or to generic memory.
    Copy,
    /// A `memset` (a zero initialization) of generic memory.
    Fill,
    /// A builtin taking a generic pointer (`vload4`, `fract`, ...), by name.
    Builtin(String),
}

impl AccessKind {
    pub fn text(&self) -> String {
        match self {
            AccessKind::Load => "load".into(),
            AccessKind::Store => "store".into(),
            AccessKind::Atomic => "atomic".into(),
            AccessKind::Copy => "copy".into(),
            AccessKind::Fill => "fill".into(),
            AccessKind::Builtin(b) => format!("call to {b}"),
        }
    }
}

/// One memory access left through a generic pointer, with the pointer it goes through and why
/// that pointer stays generic.
#[derive(Clone, Debug, PartialEq)]
pub struct GenericAccess {
    /// The access.
    pub span: Span,
    pub kind: AccessKind,
    /// The source expression the pointer comes from.
    pub pointer: SourcePath,
    pub reasons: Vec<GenericReason>,
}

/// One function (or one specialized clone of it) or kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionSpaces {
    /// The IR name (a clone's carries its space signature).
    pub name: String,
    /// The function's name in the source.
    pub source_name: String,
    pub kernel: bool,
    pub span: Span,
    /// For a clone: the space given to each generic parameter, by parameter name.
    pub specialized: Vec<(String, AddrSpace)>,
    pub pointers: Vec<PointerInfo>,
    /// Every memory access left through a generic pointer, in the function's order.
    pub accesses: Vec<GenericAccess>,
    /// Why each parameter that stays generic does (by parameter index; `None` for the
    /// others): what the accesses through it are explained with.
    pub param_reasons: Vec<Option<GenericReason>>,
}

/// Generic memory accesses of a kernel and the functions it calls, before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelAccesses {
    pub kernel: String,
    pub before: usize,
    pub after: usize,
    /// Accesses split into one access per possible space (counted in neither figure's
    /// generic accesses once split).
    pub split: usize,
}

/// Which kind of cast a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastKind {
    /// `(local int *)p`.
    Explicit,
    /// `to_global`/`to_local`/`to_private`.
    SpaceTest,
}

/// A cast proven never to succeed, as found (the warning's words are the caller's to choose).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImpossibleCast {
    pub kind: CastKind,
    /// The space the pointer always points into.
    pub actual: AddrSpace,
    /// Where the pointer gets that space.
    pub origin: Span,
    /// The space the cast asks for.
    pub target: AddrSpace,
    /// The cast.
    pub span: Span,
}

/// The whole report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpacesReport {
    pub functions: Vec<FunctionSpaces>,
    pub kernels: Vec<KernelAccesses>,
    /// Casts proven never to succeed (warnings, group `address-space-cast`).
    pub warnings: Vec<Diagnostic>,
    /// The casts behind [`SpacesReport::warnings`], in the same order.
    pub impossible_casts: Vec<ImpossibleCast>,
    /// For each kernel, the functions it reaches (IR names: specialized clones by their own),
    /// itself first: its `after` count is the sum of their [`FunctionSpaces::accesses`].
    pub reached: Vec<(String, Vec<String>)>,
}

impl SpacesReport {
    /// The functions kernel `kernel` reaches (see [`SpacesReport::reached`]).
    pub fn functions_of(&self, kernel: &str) -> &[String] {
        self.reached
            .iter()
            .find(|(k, _)| k == kernel)
            .map_or(&[], |(_, f)| &f[..])
    }
}

/// `__global`, `__local`, ... as the source spells them.
pub fn space_keyword(s: AddrSpace) -> &'static str {
    match s {
        AddrSpace::Private => "__private",
        AddrSpace::Global => "__global",
        AddrSpace::Local => "__local",
        AddrSpace::Constant => "__constant",
        AddrSpace::Generic => "generic",
    }
}

fn line(sm: &SourceMap, span: Span) -> String {
    if span.is_dummy() {
        return "?".into();
    }
    sm.location(span)
        .map_or("?".into(), |(_, l, _)| l.to_string())
}

/// One reason in words, e.g. "merges __global (line 12) and __local (line 15) at line 17".
pub fn reason_text(r: &GenericReason, sm: &SourceMap) -> String {
    match r {
        GenericReason::Merge { first, second, at } => format!(
            "merges {} (line {}) and {} (line {}) at line {}",
            space_keyword(first.0),
            line(sm, first.1),
            space_keyword(second.0),
            line(sm, second.1),
            line(sm, *at)
        ),
        GenericReason::LoadedFromMemory { at } => {
            format!("loaded from memory at line {}", line(sm, *at))
        }
        GenericReason::IntegerCast { at } => {
            format!("escapes through an integer cast at line {}", line(sm, *at))
        }
        GenericReason::AddressEscapes { at } => format!(
            "kept in memory: the variable's address escapes at line {}",
            line(sm, *at)
        ),
        GenericReason::ReturnedByCall { callee, at } => {
            format!("returned by `{callee}` at line {}", line(sm, *at))
        }
        GenericReason::StoredByCall { callee, at } => {
            format!("written by `{callee}` at line {}", line(sm, *at))
        }
        GenericReason::NoObject { at } => format!(
            "points to no object (NULL or uninitialized) at line {}",
            line(sm, *at)
        ),
        GenericReason::PassesOff => "the address-space passes are off (-O0)".into(),
        GenericReason::Parameter {
            function,
            generic_callers,
        } => {
            if generic_callers.is_empty() {
                format!("parameter of `{function}`, which no kernel calls")
            } else {
                let lines: Vec<String> = generic_callers.iter().map(|s| line(sm, *s)).collect();
                format!(
                    "parameter of `{function}`, called with an unresolved pointer at line {}",
                    lines.join(", ")
                )
            }
        }
    }
}

fn resolution_text(r: &Resolution, sm: &SourceMap) -> String {
    match r {
        Resolution::Named(s) => space_keyword(*s).to_string(),
        Resolution::PerPoint(list) => {
            let parts: Vec<String> = list
                .iter()
                .map(|(s, at)| format!("{} from line {}", space_keyword(*s), line(sm, *at)))
                .collect();
            format!("resolved at each use: {}", parts.join(", "))
        }
        Resolution::Generic(rs) => {
            let parts: Vec<String> = rs.iter().map(|r| reason_text(r, sm)).collect();
            format!("stays generic: {}", parts.join("; "))
        }
        Resolution::NoPointer => "never points to an object (only NULL or unset)".into(),
    }
}

/// One generic access in words: "line 7: load through ptrs[...]: merges ...".
pub fn access_text(a: &GenericAccess, sm: &SourceMap) -> String {
    let reasons: Vec<String> = a.reasons.iter().map(|r| reason_text(r, sm)).collect();
    format!(
        "line {}: {} through {}: {}",
        line(sm, a.span),
        a.kind.text(),
        a.pointer,
        reasons.join("; ")
    )
}

/// The human-readable report.
pub fn render_text(r: &SpacesReport, sm: &SourceMap) -> String {
    let mut out = String::new();
    for f in &r.functions {
        let kw = if f.kernel { "kernel" } else { "function" };
        let _ = write!(out, "{kw} {}", f.source_name);
        if !f.specialized.is_empty() {
            let sig: Vec<String> = f
                .specialized
                .iter()
                .map(|(n, s)| format!("{n}: {}", space_keyword(*s)))
                .collect();
            let _ = write!(out, " [specialized as {}: {}]", f.name, sig.join(", "));
        }
        let _ = writeln!(out, " (line {})", line(sm, f.span));
        if f.pointers.is_empty() && f.accesses.is_empty() {
            out.push_str("  no generic pointers\n");
        }
        for p in &f.pointers {
            let _ = writeln!(
                out,
                "  {} (line {}): {}",
                p.name,
                line(sm, p.span),
                resolution_text(&p.resolution, sm)
            );
        }
        if !f.accesses.is_empty() {
            let _ = writeln!(out, "  generic accesses left: {}", f.accesses.len());
        }
        for a in &f.accesses {
            let _ = writeln!(out, "    {}", access_text(a, sm));
        }
    }
    if !r.kernels.is_empty() {
        out.push_str("generic memory accesses per kernel (before -> after):\n");
        for k in &r.kernels {
            let _ = write!(out, "  {}: {} -> {}", k.kernel, k.before, k.after);
            if k.split > 0 {
                let _ = write!(out, " ({} split by space at run time)", k.split);
            }
            out.push('\n');
        }
    }
    out
}

fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn json_line(sm: &SourceMap, span: Span) -> String {
    if span.is_dummy() {
        return "null".into();
    }
    sm.location(span)
        .map_or("null".into(), |(_, l, _)| l.to_string())
}

fn json_space(s: AddrSpace) -> String {
    json_str(crate::types::space_name(s))
}

fn reason_json(r: &GenericReason, sm: &SourceMap) -> String {
    let text = json_str(&reason_text(r, sm));
    match r {
        GenericReason::Merge { first, second, at } => format!(
            "{{\"kind\":\"merge\",\"spaces\":[{{\"space\":{},\"line\":{}}},{{\"space\":{},\"line\":{}}}],\"line\":{},\"text\":{text}}}",
            json_space(first.0),
            json_line(sm, first.1),
            json_space(second.0),
            json_line(sm, second.1),
            json_line(sm, *at)
        ),
        GenericReason::LoadedFromMemory { at } => format!(
            "{{\"kind\":\"loaded_from_memory\",\"line\":{},\"text\":{text}}}",
            json_line(sm, *at)
        ),
        GenericReason::IntegerCast { at } => format!(
            "{{\"kind\":\"integer_cast\",\"line\":{},\"text\":{text}}}",
            json_line(sm, *at)
        ),
        GenericReason::AddressEscapes { at } => format!(
            "{{\"kind\":\"address_escapes\",\"line\":{},\"text\":{text}}}",
            json_line(sm, *at)
        ),
        GenericReason::ReturnedByCall { callee, at } => format!(
            "{{\"kind\":\"returned_by_call\",\"callee\":{},\"line\":{},\"text\":{text}}}",
            json_str(callee),
            json_line(sm, *at)
        ),
        GenericReason::StoredByCall { callee, at } => format!(
            "{{\"kind\":\"stored_by_call\",\"callee\":{},\"line\":{},\"text\":{text}}}",
            json_str(callee),
            json_line(sm, *at)
        ),
        GenericReason::NoObject { at } => format!(
            "{{\"kind\":\"no_object\",\"line\":{},\"text\":{text}}}",
            json_line(sm, *at)
        ),
        GenericReason::PassesOff => format!("{{\"kind\":\"passes_off\",\"text\":{text}}}"),
        GenericReason::Parameter {
            function,
            generic_callers,
        } => {
            let lines: Vec<String> = generic_callers.iter().map(|s| json_line(sm, *s)).collect();
            format!(
                "{{\"kind\":\"parameter\",\"function\":{},\"caller_lines\":[{}],\"text\":{text}}}",
                json_str(function),
                lines.join(",")
            )
        }
    }
}

/// The report as JSON (one object: `functions`, `kernels`, `warnings`), for tools.
pub fn render_json(r: &SpacesReport, sm: &SourceMap) -> String {
    let mut out = String::from("{\"functions\":[");
    for (fi, f) in r.functions.iter().enumerate() {
        if fi > 0 {
            out.push(',');
        }
        let spec: Vec<String> = f
            .specialized
            .iter()
            .map(|(n, s)| format!("{{\"param\":{},\"space\":{}}}", json_str(n), json_space(*s)))
            .collect();
        let _ = write!(
            out,
            "{{\"name\":{},\"source_name\":{},\"kernel\":{},\"line\":{},\"specialized\":[{}],\"pointers\":[",
            json_str(&f.name),
            json_str(&f.source_name),
            f.kernel,
            json_line(sm, f.span),
            spec.join(",")
        );
        for (pi, p) in f.pointers.iter().enumerate() {
            if pi > 0 {
                out.push(',');
            }
            let res = match &p.resolution {
                Resolution::Named(s) => format!("\"resolved\":true,\"space\":{}", json_space(*s)),
                Resolution::PerPoint(list) => {
                    let l: Vec<String> = list
                        .iter()
                        .map(|(s, at)| {
                            format!(
                                "{{\"space\":{},\"line\":{}}}",
                                json_space(*s),
                                json_line(sm, *at)
                            )
                        })
                        .collect();
                    format!(
                        "\"resolved\":true,\"space\":null,\"per_point\":[{}]",
                        l.join(",")
                    )
                }
                Resolution::Generic(rs) => {
                    let l: Vec<String> = rs.iter().map(|x| reason_json(x, sm)).collect();
                    format!(
                        "\"resolved\":false,\"space\":\"generic\",\"reasons\":[{}]",
                        l.join(",")
                    )
                }
                Resolution::NoPointer => "\"resolved\":true,\"space\":null".into(),
            };
            let _ = write!(
                out,
                "{{\"name\":{},\"line\":{},{res}}}",
                json_str(&p.name),
                json_line(sm, p.span)
            );
        }
        out.push_str("],\"accesses\":[");
        for (ai, a) in f.accesses.iter().enumerate() {
            if ai > 0 {
                out.push(',');
            }
            let rs: Vec<String> = a.reasons.iter().map(|x| reason_json(x, sm)).collect();
            let _ = write!(
                out,
                "{{\"line\":{},\"kind\":{},\"pointer\":{},\"reasons\":[{}],\"text\":{}}}",
                json_line(sm, a.span),
                json_str(&a.kind.text()),
                json_str(&a.pointer.to_string()),
                rs.join(","),
                json_str(&access_text(a, sm))
            );
        }
        out.push_str("]}");
    }
    out.push_str("],\"kernels\":[");
    for (ki, k) in r.kernels.iter().enumerate() {
        if ki > 0 {
            out.push(',');
        }
        let fs: Vec<String> = r
            .functions_of(&k.kernel)
            .iter()
            .map(|f| json_str(f))
            .collect();
        let _ = write!(
            out,
            "{{\"kernel\":{},\"generic_accesses_before\":{},\"generic_accesses_after\":{},\"split_by_space\":{},\"functions\":[{}]}}",
            json_str(&k.kernel),
            k.before,
            k.after,
            k.split,
            fs.join(",")
        );
    }
    out.push_str("],\"warnings\":[");
    for (wi, w) in r.warnings.iter().enumerate() {
        if wi > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"line\":{},\"group\":{},\"message\":{}}}",
            json_line(sm, w.span),
            json_str(w.group.unwrap_or("")),
            json_str(&w.message)
        );
    }
    out.push_str("]}\n");
    out
}

//! GNU inline assembly statements, checked as clang-19's `Sema::ActOnGCCAsmStmt` checks them
//! for a spir target: output constraints (`=`/`+`, then something allowing a register or
//! memory), outputs that are modifiable lvalues, input constraints (operand numbers and
//! `[names]` must name a plain output), memory-only inputs that are lvalues, no `void`
//! register input, clobbers (spir has no registers: only `memory`, `cc`, `unwind`), the
//! template's `%` escapes and operand references, tied operands of compatible types, and
//! operand names used once. The first error ends the checks, as in clang.
//!
//! The statement is kept in the HIR so that lowering can refuse it with a located error:
//! no oclc device runs inline assembly.

use oclc_syntax::Span;
use oclc_syntax::ast::{self, StrLit};

use super::Checker;
use crate::hir::{Expr, StmtKind};
use crate::types::QualType;

/// What a constraint allows (clang's `TargetInfo::ConstraintInfo` flags).
#[derive(Clone, Copy, Debug, Default)]
struct Info {
    reg: bool,
    mem: bool,
    read_write: bool,
    early_clobber: bool,
    tied: Option<usize>,
}

/// clang's `validateOutputConstraint` (spir's `validateAsmConstraint` accepts any letter
/// without allowing anything).
fn output_constraint(c: &[u8]) -> Option<Info> {
    let mut info = Info::default();
    match c.first() {
        Some(b'+') => info.read_write = true,
        Some(b'=') => {}
        _ => return None,
    }
    let mut i = 1;
    while i < c.len() {
        match c[i] {
            b'&' => info.early_clobber = true,
            b'r' => info.reg = true,
            b'm' | b'o' | b'V' | b'<' | b'>' => info.mem = true,
            b'g' | b'X' => {
                info.reg = true;
                info.mem = true;
            }
            b',' if matches!(c.get(i + 1), Some(b'=' | b'+')) => i += 1,
            b'#' => {
                while i + 1 < c.len() && c[i + 1] != b',' {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    if info.early_clobber && info.read_write && !info.reg {
        return None;
    }
    (info.reg || info.mem).then_some(info)
}

/// clang's `validateInputConstraint` against the outputs' constraints and names.
fn input_constraint(c: &[u8], outs: &[(Info, Option<&str>)]) -> Option<Info> {
    if c.is_empty() {
        return None;
    }
    let mut info = Info::default();
    let tie = |info: &mut Info, n: usize| -> bool {
        let Some((o, _)) = outs.get(n) else {
            return false;
        };
        if o.read_write || info.tied.is_some_and(|t| t != n) {
            return false;
        }
        *info = Info {
            tied: Some(n),
            ..*o
        };
        true
    };
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            b'0'..=b'9' => {
                let start = i;
                while c.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
                let n = std::str::from_utf8(&c[start..=i])
                    .ok()
                    .and_then(|s| s.parse::<usize>().ok());
                if !n.is_some_and(|n| tie(&mut info, n)) {
                    return None;
                }
            }
            b'[' => {
                let rest = &c[i + 1..];
                let end = rest.iter().position(|&b| b == b']')?;
                let name = std::str::from_utf8(&rest[..end]).ok()?;
                let n = outs.iter().position(|(_, o)| *o == Some(name))?;
                if !tie(&mut info, n) {
                    return None;
                }
                i += end + 1;
            }
            b'r' => info.reg = true,
            b'm' | b'o' | b'V' | b'<' | b'>' => info.mem = true,
            b'g' | b'X' => {
                info.reg = true;
                info.mem = true;
            }
            b'#' => {
                while i + 1 < c.len() && c[i + 1] != b',' {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    Some(info)
}

/// clang's `isValidClobber` for spir, which names no registers (`%memory` is a register
/// name, so not valid).
fn valid_clobber(c: &[u8]) -> bool {
    matches!(c, b"memory" | b"cc" | b"unwind")
}

/// A template error: clang's message and the byte of the string it points at.
type TemplateError = (&'static str, usize);

/// clang's `GCCAsmStmt::AnalyzeAsmString`: the operand numbers the template mentions, or its
/// first error. `names` are the operands' names in order (outputs, inputs, labels).
fn analyze_template(
    s: &[u8],
    operands: usize,
    names: &[Option<&str>],
) -> Result<Vec<usize>, TemplateError> {
    let mut used = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        i += 1;
        if c != b'%' {
            continue;
        }
        let Some(&e) = s.get(i) else {
            return Err(("invalid % escape in inline assembly string", i - 1));
        };
        i += 1;
        if matches!(e, b'%' | b'{' | b'}' | b'=') {
            continue;
        }
        let mut e = e;
        if e.is_ascii_alphabetic() {
            let Some(&n) = s.get(i) else {
                return Err(("invalid % escape in inline assembly string", i - 1));
            };
            e = n;
            i += 1;
        }
        if e.is_ascii_digit() {
            i -= 1;
            let mut n: usize = 0;
            while let Some(d) = s.get(i).filter(|d| d.is_ascii_digit()) {
                n = n.saturating_mul(10).saturating_add(usize::from(d - b'0'));
                i += 1;
            }
            if n >= operands {
                return Err(("invalid operand number in inline asm string", i - 1));
            }
            used.push(n);
            continue;
        }
        if e == b'[' {
            let Some(end) = s[i..].iter().position(|&b| b == b']') else {
                return Err((
                    "unterminated symbolic operand name in inline assembly string",
                    i - 1,
                ));
            };
            if end == 0 {
                return Err((
                    "empty symbolic operand name in inline assembly string",
                    i - 1,
                ));
            }
            let name = std::str::from_utf8(&s[i..i + end]).unwrap_or("");
            let Some(n) = names.iter().position(|n| *n == Some(name)) else {
                return Err(("unknown symbolic operand name in inline assembly string", i));
            };
            used.push(n);
            i += end + 1;
            continue;
        }
        return Err(("invalid % escape in inline assembly string", i - 1));
    }
    Ok(used)
}

/// The source location of byte `offset` of a string literal's value (clang's
/// `getLocationOfStringLiteralByte`), for literals written in the file; else the first
/// piece's start.
fn literal_byte(lit: &StrLit, offset: usize) -> Span {
    let Some(&(_, first)) = lit.pieces.first() else {
        return Span::DUMMY;
    };
    let mut left = offset;
    for (sym, span) in &lit.pieces {
        if span.expn.0 != 0 {
            return first.start();
        }
        let text = sym.as_str().as_bytes();
        let Some(q) = text.iter().position(|&b| b == b'"') else {
            return first.start();
        };
        let mut j = q + 1;
        while j + 1 < text.len() {
            let len = escape_len(&text[j..]);
            if left == 0 {
                let lo = span.lo.saturating_add(j as u32);
                return Span {
                    lo,
                    hi: lo.saturating_add(1),
                    ..*span
                };
            }
            left -= 1;
            j += len;
        }
    }
    first.start()
}

/// The source length of the character (or escape sequence) at the start of `t`.
fn escape_len(t: &[u8]) -> usize {
    if t.first() != Some(&b'\\') {
        return 1;
    }
    match t.get(1) {
        Some(b'x') => 2 + t[2..].iter().take_while(|b| b.is_ascii_hexdigit()).count(),
        Some(b'0'..=b'7') => {
            1 + t[1..]
                .iter()
                .take(3)
                .take_while(|b| (b'0'..=b'7').contains(b))
                .count()
        }
        Some(_) => 2,
        None => 1,
    }
}

/// The domain clang ties operands within (integers and pointers, floating point, other).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Domain {
    Int,
    Fp,
    Other,
}

impl Checker<'_> {
    /// Checks an asm statement; the HIR keeps only that there was one.
    pub(crate) fn asm_stmt(&mut self, a: &ast::AsmStmt, span: Span) -> StmtKind {
        let outs: Vec<Expr> = a.outputs.iter().map(|o| self.expr(&o.expr)).collect();
        let ins: Vec<Expr> = a.inputs.iter().map(|o| self.expr(&o.expr)).collect();
        for l in &a.labels {
            self.gotos.push(*l);
        }
        if !outs.iter().chain(&ins).any(Expr::is_error) {
            self.asm_checks(a, &outs, ins);
        }
        StmtKind::Asm(span)
    }

    /// The checks after the operands' own (`ActOnGCCAsmStmt`); stops at the first error.
    fn asm_checks(&mut self, a: &ast::AsmStmt, outs: &[Expr], ins: Vec<Expr>) {
        let mut out_infos: Vec<(Info, Option<&str>)> = Vec::new();
        for (o, x) in a.outputs.iter().zip(outs) {
            let Some(info) = output_constraint(&o.constraint.value) else {
                let c = String::from_utf8_lossy(&o.constraint.value);
                self.err(
                    o.constraint.pieces[0].1,
                    format!("invalid output constraint '{c}' in asm"),
                );
                return;
            };
            if !self.asm_output_lvalue(x) {
                self.err(x.span, "invalid lvalue in asm output");
                return;
            }
            out_infos.push((info, o.name.map(|n| n.name.as_str())));
        }
        let mut in_infos = Vec::new();
        let mut in_tys = Vec::new();
        for (o, x) in a.inputs.iter().zip(ins) {
            let c = String::from_utf8_lossy(&o.constraint.value).into_owned();
            let Some(info) = input_constraint(&o.constraint.value, &out_infos) else {
                self.err(
                    o.constraint.pieces[0].1,
                    format!("invalid input constraint '{c}' in asm"),
                );
                return;
            };
            let x = if info.mem && !info.reg {
                if !x.lvalue {
                    self.err(
                        x.span,
                        format!("invalid lvalue in asm input for constraint '{c}'"),
                    );
                    return;
                }
                x
            } else {
                self.rvalue(x)
            };
            if info.reg && self.prog.types.is_void(x.ty) {
                let t = self.prog.types.quoted(x.ty);
                self.err(
                    x.span,
                    format!("invalid type {t} in asm input for constraint '{c}'"),
                );
                return;
            }
            if !self.prog.types.is_void(x.ty) && !self.prog.types.is_complete(x.ty) {
                let t = self.prog.types.quoted(x.ty);
                self.err(x.span, format!("asm operand has incomplete type {t}"));
                return;
            }
            in_infos.push(info);
            in_tys.push((x.ty, x.span));
        }
        for c in &a.clobbers {
            if !valid_clobber(&c.value) {
                let n = String::from_utf8_lossy(&c.value);
                self.err(c.pieces[0].1, format!("unknown register name '{n}' in asm"));
                return;
            }
        }
        let names: Vec<Option<&str>> = a
            .outputs
            .iter()
            .chain(&a.inputs)
            .map(|o| o.name.map(|n| n.name.as_str()))
            .chain(a.labels.iter().map(|l| Some(l.name.as_str())))
            .collect();
        let mut mentioned = Vec::new();
        if !a.simple {
            let plus = out_infos.iter().filter(|(i, _)| i.read_write).count();
            let operands = outs.len() + plus + in_infos.len() + a.labels.len();
            match analyze_template(&a.template.value, operands, &names) {
                Ok(m) => mentioned = m,
                Err((msg, at)) => {
                    self.err(literal_byte(&a.template, at), msg);
                    return;
                }
            }
        }
        if !self.asm_ties(outs, &out_infos, &in_infos, &in_tys, &mentioned) {
            return;
        }
        self.asm_duplicate_names(a, outs, &in_tys);
    }

    /// Whether an output is a modifiable lvalue (arrays are fine), as clang's
    /// `isModifiableLvalue` for asm outputs.
    fn asm_output_lvalue(&self, x: &Expr) -> bool {
        let types = &self.prog.types;
        x.lvalue
            && (types.is_array(x.ty)
                || (!types.canonical(x.ty).quals.is_const()
                    && !crate::space::is_read_only_space(types.object_space(x.ty))))
    }

    /// clang's checks of tied inputs: one input per output, and types of one domain and size
    /// unless the smaller one is not mentioned and widening it is possible.
    fn asm_ties(
        &mut self,
        outs: &[Expr],
        out_infos: &[(Info, Option<&str>)],
        in_infos: &[Info],
        in_tys: &[(QualType, Span)],
        mentioned: &[usize],
    ) -> bool {
        let mut matched: Vec<Option<usize>> = vec![None; outs.len()];
        for (i, info) in in_infos.iter().enumerate() {
            let Some(t) = info.tied else { continue };
            let Some(&(in_ty, in_span)) = in_tys.get(i) else {
                continue;
            };
            if let Some(first) = matched.get(t).copied().flatten() {
                self.err(
                    in_span,
                    format!("more than one input constraint matches the same output '{t}'"),
                );
                if let Some(&(_, fs)) = in_tys.get(first) {
                    self.note_last(fs, format!("constraint '{t}' is already present here"));
                }
                return false;
            }
            if let Some(m) = matched.get_mut(t) {
                *m = Some(i);
            }
            let Some(out) = outs.get(t) else { continue };
            let types = &self.prog.types;
            let (ci, co) = (types.canonical(in_ty), types.canonical(out.ty));
            if ci.id == co.id {
                continue;
            }
            let domain = |q: QualType| {
                if types.is_integer(q) || types.is_pointer(q) {
                    Domain::Int
                } else if types.as_scalar(q).is_some_and(|s| s.is_float()) {
                    Domain::Fp
                } else {
                    Domain::Other
                }
            };
            let (din, dout) = (domain(in_ty), domain(out.ty));
            let insz = types.size_of(in_ty).unwrap_or(0);
            let outsz = types.size_of(out.ty).unwrap_or(0);
            if insz == outsz && din == dout && din != Domain::Other {
                continue;
            }
            let input_no = outs.len() + i;
            let smaller_mentioned = !mentioned.is_empty()
                && ((mentioned.contains(&input_no) && insz < outsz)
                    || (mentioned.contains(&t) && outsz < insz));
            let out_reg = out_infos.get(t).is_some_and(|(o, _)| o.reg);
            if !smaller_mentioned && din != Domain::Other && out_reg && outsz * 8 <= 64 {
                continue;
            }
            if din == Domain::Int && dout == Domain::Int && !mentioned.contains(&input_no) {
                continue;
            }
            let (a, b) = (types.quoted(in_ty), types.quoted(out.ty));
            self.err(
                in_span,
                format!(
                    "unsupported inline asm: input with type {a} matching output with type {b}"
                ),
            );
            return false;
        }
        true
    }

    /// clang's "duplicate use of asm operand name": the first pair of equal names in name
    /// order.
    fn asm_duplicate_names(
        &mut self,
        a: &ast::AsmStmt,
        outs: &[Expr],
        in_tys: &[(QualType, Span)],
    ) {
        let mut named: Vec<(&str, Span)> = Vec::new();
        for (o, x) in a.outputs.iter().zip(outs) {
            if let Some(n) = o.name {
                named.push((n.name.as_str(), x.span));
            }
        }
        for (o, (_, s)) in a.inputs.iter().zip(in_tys) {
            if let Some(n) = o.name {
                named.push((n.name.as_str(), *s));
            }
        }
        for l in &a.labels {
            named.push((l.name.as_str(), l.span));
        }
        named.sort_by(|x, y| x.0.cmp(y.0));
        if let Some(w) = named.windows(2).find(|w| w[0].0 == w[1].0) {
            let (first, second) = (w[0], w[1]);
            self.err(
                second.1,
                format!("duplicate use of asm operand name \"{}\"", second.0),
            );
            self.note_last(
                first.1,
                format!("asm operand name \"{}\" first referenced here", first.0),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_as_clang() {
        assert!(output_constraint(b"=r").is_some());
        assert!(output_constraint(b"+m").is_some());
        assert!(output_constraint(b"=x").is_none());
        assert!(output_constraint(b"r").is_none());
        assert!(output_constraint(b"=").is_none());
        let outs = [(output_constraint(b"=r").unwrap_or_default(), Some("o"))];
        assert!(input_constraint(b"q", &outs).is_some());
        assert!(input_constraint(b"", &outs).is_none());
        assert!(input_constraint(b"1", &outs).is_none());
        assert_eq!(
            input_constraint(b"[o]", &outs).and_then(|i| i.tied),
            Some(0)
        );
        assert!(valid_clobber(b"memory") && !valid_clobber(b"%cc") && !valid_clobber(b"r0"));
    }

    #[test]
    fn template_as_clang() {
        assert_eq!(analyze_template(b"%0 %1", 2, &[None, None]), Ok(vec![0, 1]));
        assert_eq!(
            analyze_template(b"%0 %1 %2", 2, &[None, None]).map_err(|e| e.1),
            Err(7)
        );
        assert_eq!(analyze_template(b"%", 0, &[]).map_err(|e| e.1), Err(0));
        assert_eq!(analyze_template(b"%% %= %{", 0, &[]), Ok(vec![]));
        assert_eq!(
            analyze_template(b"%[o] %[z]", 1, &[Some("o")]).map_err(|e| e.1),
            Err(7)
        );
    }
}

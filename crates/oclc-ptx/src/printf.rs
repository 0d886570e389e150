//! `printf` on the cuda device. Each call appends a record to a launch's printf buffer (a hidden
//! kernel parameter, only in kernels that reach `printf`): an atomic add on the buffer's byte
//! counter reserves room, and a call whose record does not fit marks the buffer cut and
//! returns -1. After the launch the host sorts the records into the cpu device's order
//! (work-group, then work-item, then program order) and formats them with the formatter the
//! cpu device uses ([`oclc_ir::printf`]), so both devices print the same text.
//!
//! Buffer layout: `u64` bytes reserved (atomic counter), `u64` capacity of the record area,
//! `u32` cut flag, padding to [`HEADER`] bytes, then the records. A record: `u32` its size,
//! `u32` format id (index into [`PtxModule::printf`](crate::PtxModule)), `u32` work-group id
//! x, y, z, `u32` local id x, y, z, `u32` barriers the work-item had passed, 4 bytes of
//! padding, then 8 bytes per argument lane (zero-extended bits).

use crate::emit::{FnEmitter, R};
use crate::regs::Rc;
use oclc_ir::{AddrSpace, Function, InstData, Module, Op, Scalar, Type, Value, ValueDef};
use std::collections::HashMap;

/// Bytes of the buffer header before the first record.
pub const HEADER: usize = 32;
/// Bytes of a record before its argument lanes.
pub const RECORD_HEAD: usize = 40;

/// One `printf` call site of a module: its format (without the NUL) and argument types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfSite {
    pub format: Vec<u8>,
    pub args: Vec<Type>,
}

impl PrintfSite {
    /// Bytes of this site's record.
    pub fn record_size(&self) -> usize {
        RECORD_HEAD + 8 * self.args.iter().map(|t| t.lanes() as usize).sum::<usize>()
    }
}

/// The format string global a `printf` format operand points into, traced through
/// `ptradd` by constants and address-space casts; the bytes from there to the NUL.
pub fn constant_format(m: &Module, f: &Function, v: Value) -> Result<Vec<u8>, String> {
    let mut v = v;
    let mut off: u64 = 0;
    for _ in 0..64 {
        let Some(ValueDef::Inst(i)) = f.values.get(v.index()).map(|d| d.def) else {
            break;
        };
        let Some(inst) = f.insts.get(i.index()) else {
            break;
        };
        match &inst.op {
            Op::GlobalAddr(g) => {
                let Some(gv) = m.globals.get(g.index()) else {
                    break;
                };
                if gv.space != AddrSpace::Constant || !gv.relocs.is_empty() {
                    return Err(format!(
                        "printf with a format in `{}`, which is not a constant string",
                        gv.name
                    ));
                }
                let start = usize::try_from(off).unwrap_or(usize::MAX);
                let bytes = gv.init.get(start..).unwrap_or(&[]);
                let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
                return Ok(bytes[..end].to_vec());
            }
            Op::PtrAdd(p, o) => {
                let c = match f.values.get(o.index()).map(|d| d.def) {
                    Some(ValueDef::Inst(ci)) => match f.insts.get(ci.index()).map(|x| &x.op) {
                        Some(Op::Const(oclc_ir::Const::Int(x))) => Some(*x),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(c) = c else { break };
                off = off.wrapping_add(c);
                v = *p;
            }
            Op::ToGeneric(p) | Op::FromGeneric(p, _) => v = *p,
            _ => break,
        }
    }
    Err("printf with a format that is not a string literal".into())
}

/// Which functions take the printf buffer (and the work-item's barrier count): those that
/// reach `printf`, and those with barriers (or work-group collectives) that such a function
/// may call, since the cpu device orders output by the barriers passed; with their callers.
pub fn buffer_users(m: &Module) -> Vec<bool> {
    let pf = crate::emit::transitive_users(m, |op| matches!(op, Op::Printf(..)));
    if !pf.contains(&true) {
        return pf;
    }
    // Functions reachable from a printf user.
    let mut reach = pf.clone();
    let mut todo: Vec<usize> = (0..reach.len()).filter(|&i| reach[i]).collect();
    while let Some(f) = todo.pop() {
        for d in m.functions.get(f).map_or(&[][..], |f| &f.insts[..]) {
            if let Op::Call(c, _) = d.op
                && let Some(r) = reach.get_mut(c.index())
                && !*r
            {
                *r = true;
                todo.push(c.index());
            }
        }
    }
    let seeds = m
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| {
            pf[i]
                || reach[i]
                    && f.insts
                        .iter()
                        .any(|d| matches!(d.op, Op::Barrier { .. } | Op::WorkGroup { .. }))
        })
        .collect();
    crate::emit::callers_closure(m, seeds)
}

/// Every `printf` of `m` that has a constant format, numbered in module order (function,
/// then instruction), and for each call (function index, instruction index) its format id or
/// why it has none (reported when the call is emitted, with its source line).
#[allow(clippy::type_complexity)]
pub fn sites(
    m: &Module,
) -> (
    Vec<PrintfSite>,
    HashMap<(usize, usize), Result<u32, String>>,
) {
    let mut sites: Vec<PrintfSite> = Vec::new();
    let mut of = HashMap::new();
    for (fi, f) in m.functions.iter().enumerate() {
        for (ii, d) in f.insts.iter().enumerate() {
            let Op::Printf(fmt, args) = &d.op else {
                continue;
            };
            let site = constant_format(m, f, *fmt).map(|format| PrintfSite {
                format,
                args: args
                    .iter()
                    .map(|a| f.values.get(a.index()).map_or(Type::I32, |v| v.ty))
                    .collect(),
            });
            let id = site.map(|site| match sites.iter().position(|s| *s == site) {
                Some(i) => i as u32,
                None => {
                    sites.push(site);
                    sites.len() as u32 - 1
                }
            });
            of.insert((fi, ii), id);
        }
    }
    (sites, of)
}

impl FnEmitter<'_> {
    /// Whether this function takes the printf buffer (`%pf_buf`) and the generic address of
    /// the work-item's barrier count (`%pf_phase`).
    pub(crate) fn pf(&self) -> bool {
        self.cx.pf.get(self.idx).copied().unwrap_or(false)
    }

    /// After a barrier: one more passed, in the count printf records carry.
    pub(crate) fn count_barrier(&mut self) {
        if self.pf() {
            let t = self.tmp(Rc::B32);
            self.ins(format!("ld.u32 {t}, [%pf_phase]"));
            self.ins(format!("add.u32 {t}, {t}, 1"));
            self.ins(format!("st.u32 [%pf_phase], {t}"));
        }
    }

    /// One `printf` call: reserve a record with an atomic add on the buffer's counter; if it
    /// fits, write the format id, the work-item's ids and the argument lanes, and return 0;
    /// else set the cut flag and return -1.
    pub(crate) fn printf(&mut self, d: &InstData, args: &[Value]) -> R<()> {
        let ii = self.f.insts.iter().position(|x| std::ptr::eq(x, d));
        let id = match ii.and_then(|ii| self.cx.printf_of.get(&(self.idx, ii))) {
            Some(Ok(id)) => *id,
            Some(Err(why)) => return Err(self.unsupported(why.clone())),
            None => return Err(self.invalid("printf without a format site")),
        };
        if !self.pf() || !self.nd {
            return Err(self.invalid("printf in a function without the printf buffer"));
        }
        // A format the cpu device rejects (printf returns -1, prints nothing) whatever the
        // values: the same here, without a record.
        let site = self.cx.printf_sites.get(id as usize);
        let malformed = site.is_some_and(|site| {
            let dummy: Vec<(Vec<u64>, Type)> = site
                .args
                .iter()
                .map(|t| (vec![0; t.lanes() as usize], *t))
                .collect();
            let mut empty = |_: u64| -> Result<Vec<u8>, ()> { Ok(Vec::new()) };
            matches!(
                oclc_ir::printf::format(&site.format, &dummy, &mut empty),
                Ok(None)
            )
        });
        if malformed {
            if let Some(r) = d.result {
                let r = self.reg(r, 0)?;
                self.ins(format!("mov.b32 {r}, -1"));
            }
            return Ok(());
        }
        let lanes: u32 = args
            .iter()
            .map(|a| self.ty(*a).map(Type::lanes))
            .sum::<R<u32>>()?;
        let size = RECORD_HEAD as u32 + 8 * lanes;
        let res = match d.result {
            Some(r) => Some(self.reg(r, 0)?),
            None => None,
        };
        let (off, cap, end, a) = (
            self.tmp(Rc::B64),
            self.tmp(Rc::B64),
            self.tmp(Rc::B64),
            self.tmp(Rc::B64),
        );
        let full = self.tmp(Rc::Pred);
        let done = self.fresh_label();
        self.ins(format!("atom.global.add.u64 {off}, [%pf_buf], {size}"));
        self.ins(format!("ld.global.u64 {cap}, [%pf_buf+8]"));
        self.ins(format!("add.u64 {end}, {off}, {size}"));
        self.ins(format!("setp.gt.u64 {full}, {end}, {cap}"));
        let one = self.tmp(Rc::B32);
        self.ins(format!("mov.u32 {one}, 1"));
        self.ins(format!("@{full} st.global.u32 [%pf_buf+16], {one}"));
        if let Some(r) = &res {
            self.ins(format!("@{full} mov.b32 {r}, -1"));
        }
        self.ins(format!("@{full} bra {done}"));
        self.ins(format!("add.u64 {a}, %pf_buf, {off}"));
        let w = self.tmp(Rc::B32);
        self.ins(format!("mov.u32 {w}, {size}"));
        self.ins(format!("st.global.u32 [{a}+{HEADER}], {w}"));
        self.ins(format!("mov.u32 {w}, {id}"));
        self.ins(format!("st.global.u32 [{a}+{}], {w}", HEADER + 4));
        for k in 0..3u32 {
            self.ins(format!(
                "st.global.u32 [{a}+{}], %nd_grp{k}",
                HEADER as u32 + 8 + 4 * k
            ));
            let t = self.special("tid", k);
            self.ins(format!(
                "st.global.u32 [{a}+{}], {t}",
                HEADER as u32 + 20 + 4 * k
            ));
        }
        let ph = self.tmp(Rc::B32);
        self.ins(format!("ld.u32 {ph}, [%pf_phase]"));
        self.ins(format!("st.global.u32 [{a}+{}], {ph}", HEADER as u32 + 32));
        let mut at = HEADER as u32 + RECORD_HEAD as u32;
        for v in args {
            let t = self.ty(*v)?;
            let elem = t.elem();
            for l in 0..t.lanes() {
                let r = self.reg(*v, l)?;
                let bits = self.tmp(Rc::B64);
                match elem {
                    None | Some(Scalar::I64) => self.ins(format!("mov.b64 {bits}, {r}")),
                    Some(Scalar::F64) => self.ins(format!("mov.b64 {bits}, {r}")),
                    Some(Scalar::F32) => {
                        let b = self.tmp(Rc::B32);
                        self.ins(format!("mov.b32 {b}, {r}"));
                        self.ins(format!("cvt.u64.u32 {bits}, {b}"));
                    }
                    Some(Scalar::F16) => self.ins(format!("cvt.u64.u16 {bits}, {r}")),
                    Some(Scalar::I1) => self.ins(format!("selp.u64 {bits}, 1, 0, {r}")),
                    Some(s) => {
                        let z = self.zext32(&r, s.bits());
                        self.ins(format!("cvt.u64.u32 {bits}, {z}"));
                    }
                }
                self.ins(format!("st.global.u64 [{a}+{at}], {bits}"));
                at += 8;
            }
        }
        if let Some(r) = &res {
            self.ins(format!("mov.b32 {r}, 0"));
        }
        self.label(&done);
        Ok(())
    }
}

/// The decoded records of one launch's buffer, formatted in the cpu device's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintfOutput {
    pub text: String,
    /// Whether a record did not fit (its printf returned -1) or the text passed `limit`.
    pub truncated: bool,
}

/// Formats the records of a launch's printf buffer `buf` (header and records, as read back)
/// in the cpu device's order: work-groups by linear id, in each the work-items by local
/// linear id, each work-item's calls in program order (ids compared z, y, x, which orders
/// them as their linear ids whatever the sizes). `read_str` reads a `%s`
/// argument's string from the device (`None`: no string there, which ends the decoding with
/// that error). The text is cut at `limit` bytes as the cpu device's [`PrintfBuffer`] cuts
/// it: a message that does not fit is dropped, and so is every later one.
///
/// [`PrintfBuffer`]: oclc_ir::printf::PrintfBuffer
pub fn decode(
    buf: &[u8],
    sites: &[PrintfSite],
    limit: usize,
    read_str: &mut dyn FnMut(u64) -> Result<Vec<u8>, String>,
) -> Result<PrintfOutput, String> {
    let u64_at = |b: &[u8], at: usize| -> u64 {
        b.get(at..at + 8)
            .and_then(|s| s.try_into().ok())
            .map_or(0, u64::from_le_bytes)
    };
    let u32_at = |b: &[u8], at: usize| -> u32 {
        b.get(at..at + 4)
            .and_then(|s| s.try_into().ok())
            .map_or(0, u32::from_le_bytes)
    };
    let used = u64_at(buf, 0);
    let cap = u64_at(buf, 8);
    let mut cut = u32_at(buf, 16) != 0 || used > cap;
    let data = buf.get(HEADER..).unwrap_or(&[]);
    let end = usize::try_from(used.min(cap))
        .unwrap_or(usize::MAX)
        .min(data.len());
    // (work-group id z, y, x, barriers passed, local id z, y, x, offset), the cpu device's
    // order: it runs each work-item of a group up to the next barrier in turn. Offsets of
    // one work-item grow in program order, since each call reserves after the previous one.
    let mut recs = Vec::new();
    let mut at = 0usize;
    while at + RECORD_HEAD <= end {
        let size = u32_at(data, at) as usize;
        if size == 0 {
            // Unwritten: the room after the last record that fitted, reserved by calls whose
            // record ran past the capacity (offsets only grow, so nothing fitted after).
            break;
        }
        let id = u32_at(data, at + 4) as usize;
        let site = sites.get(id).ok_or_else(|| {
            format!("printf record at byte {at} names format {id}, which does not exist")
        })?;
        if size != site.record_size() || at + size > end {
            return Err(format!(
                "printf record at byte {at} is {size} bytes, its format takes {}",
                site.record_size()
            ));
        }
        let id = |k: usize| u32_at(data, at + 8 + 4 * k);
        let key = [id(2), id(1), id(0), id(6), id(5), id(4), id(3)];
        recs.push((key, at, site));
        at += size;
    }
    recs.sort_by_key(|r| (r.0, r.1));
    let out_buf = oclc_ir::printf::PrintfBuffer::new(limit);
    let mut text = String::new();
    for (_, at, site) in recs {
        let mut p = at + RECORD_HEAD;
        let mut args = Vec::with_capacity(site.args.len());
        for t in &site.args {
            let lanes: Vec<u64> = (0..t.lanes())
                .map(|l| u64_at(data, p + 8 * l as usize))
                .collect();
            p += 8 * t.lanes() as usize;
            args.push((lanes, *t));
        }
        let s = oclc_ir::printf::format(&site.format, &args, read_str)?;
        if let Some(s) = s
            && out_buf.reserve(s.len())
        {
            text.push_str(&s);
        }
    }
    cut |= out_buf.truncated();
    Ok(PrintfOutput {
        text,
        truncated: cut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use oclc_ir::Scalar;

    fn record(site: u32, size: usize, ids: [u32; 6], lanes: &[u64]) -> Vec<u8> {
        record_in(site, size, ids, 0, lanes)
    }

    fn record_in(site: u32, size: usize, ids: [u32; 6], phase: u32, lanes: &[u64]) -> Vec<u8> {
        let mut r = Vec::new();
        r.extend((size as u32).to_le_bytes());
        r.extend(site.to_le_bytes());
        for i in ids {
            r.extend(i.to_le_bytes());
        }
        r.extend(phase.to_le_bytes());
        r.extend(0u32.to_le_bytes());
        for l in lanes {
            r.extend(l.to_le_bytes());
        }
        r
    }

    fn buffer(records: &[Vec<u8>], cap: u64, cut: bool) -> Vec<u8> {
        let used: usize = records.iter().map(Vec::len).sum();
        let mut b = Vec::new();
        b.extend((used as u64).to_le_bytes());
        b.extend(cap.to_le_bytes());
        b.extend(u32::from(cut).to_le_bytes());
        b.resize(HEADER, 0);
        for r in records {
            b.extend(r);
        }
        b
    }

    fn sites() -> Vec<PrintfSite> {
        vec![
            PrintfSite {
                format: b"g%d i%d: %d\n".to_vec(),
                args: vec![Type::I32, Type::I32, Type::I32],
            },
            PrintfSite {
                format: b"%v4f %s\n".to_vec(),
                args: vec![Type::Vector(Scalar::F32, 4), Type::Ptr(AddrSpace::Constant)],
            },
        ]
    }

    fn no_str(p: u64) -> Result<Vec<u8>, String> {
        if p == 0x1000 {
            Ok(b"lit".to_vec())
        } else {
            Err(format!("no string at {p:#x}"))
        }
    }

    #[test]
    fn records_are_sorted_into_group_item_program_order() {
        let s = sites();
        let sz = s[0].record_size();
        // Work-groups of 2 items, 2 groups; records arrive out of order.
        let recs = vec![
            record(0, sz, [1, 0, 0, 0, 0, 0], &[1, 0, 7]),
            record(0, sz, [0, 0, 0, 1, 0, 0], &[0, 1, 5]),
            record(0, sz, [0, 0, 0, 0, 0, 0], &[0, 0, 3]),
            record(0, sz, [0, 0, 0, 0, 0, 0], &[0, 0, 4]),
            record(0, sz, [1, 0, 0, 1, 0, 0], &[1, 1, 8]),
        ];
        let b = buffer(&recs, 1 << 20, false);
        let out = decode(&b, &s, 1 << 20, &mut no_str).expect("decodes");
        assert_eq!(
            out.text,
            "g0 i0: 3\ng0 i0: 4\ng0 i1: 5\ng1 i0: 7\ng1 i1: 8\n"
        );
        assert!(!out.truncated);
        // Across a barrier: every work-item's output before it comes first, as on the cpu.
        let recs = vec![
            record_in(0, sz, [0, 0, 0, 1, 0, 0], 1, &[0, 1, 11]),
            record_in(0, sz, [0, 0, 0, 1, 0, 0], 0, &[0, 1, 10]),
            record_in(0, sz, [0, 0, 0, 0, 0, 0], 1, &[0, 0, 1]),
            record_in(0, sz, [0, 0, 0, 0, 0, 0], 0, &[0, 0, 0]),
        ];
        let b = buffer(&recs, 1 << 20, false);
        let out = decode(&b, &s, 1 << 20, &mut no_str).expect("decodes");
        assert_eq!(out.text, "g0 i0: 0\ng0 i1: 10\ng0 i0: 1\ng0 i1: 11\n");
    }

    #[test]
    fn vectors_and_strings_format_as_on_the_cpu() {
        let s = sites();
        let lanes: Vec<u64> = [1.0f32, 2.5, -3.0, 4.0]
            .iter()
            .map(|x| u64::from(x.to_bits()))
            .chain([0x1000])
            .collect();
        let b = buffer(
            &[record(1, s[1].record_size(), [0; 6], &lanes)],
            1 << 20,
            false,
        );
        let out = decode(&b, &s, 1 << 20, &mut no_str).expect("decodes");
        assert_eq!(out.text, "1.000000,2.500000,-3.000000,4.000000 lit\n");
        let mut bad = lanes.clone();
        bad[4] = 0x2000;
        let b = buffer(
            &[record(1, s[1].record_size(), [0; 6], &bad)],
            1 << 20,
            false,
        );
        assert_eq!(
            decode(&b, &s, 1 << 20, &mut no_str),
            Err("no string at 0x2000".into())
        );
    }

    #[test]
    fn a_full_buffer_or_text_limit_reports_the_cut() {
        let s = sites();
        let sz = s[0].record_size();
        let recs = vec![
            record(0, sz, [0; 6], &[0, 0, 1]),
            record(0, sz, [0; 6], &[0, 0, 2]),
        ];
        // The device reserved past the capacity: one record fits, the cut flag is set, and
        // the room after it (too small for a record) stays zero.
        let mut b = buffer(&recs[..1], sz as u64 + 50, true);
        b[0..8].copy_from_slice(&((2 * sz) as u64).to_le_bytes());
        b.resize(b.len() + 50, 0);
        let out = decode(&b, &s, 1 << 20, &mut no_str).expect("decodes");
        assert_eq!((out.text.as_str(), out.truncated), ("g0 i0: 1\n", true));
        // Text limit of 12 bytes: the second message (9 bytes) is dropped.
        let b = buffer(&recs, 1 << 20, false);
        let out = decode(&b, &s, 12, &mut no_str).expect("decodes");
        assert_eq!((out.text.as_str(), out.truncated), ("g0 i0: 1\n", true));
        // A corrupt record is an error, not a panic.
        let mut b = buffer(&recs, 1 << 20, false);
        b[HEADER + 4] = 9;
        assert!(decode(&b, &s, 1 << 20, &mut no_str).is_err());
    }
}

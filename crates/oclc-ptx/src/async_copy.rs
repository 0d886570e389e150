//! `async_work_group_copy`, `async_work_group_strided_copy`, `wait_group_events` and
//! `prefetch`. The work-group copies cooperatively (work-item k moves units k, k + size, ...
//! of the range), and `wait_group_events`, which the spec requires every work-item of the
//! group to reach, is the barrier that makes the copied data visible. `prefetch` is a hint
//! and emits nothing.

use crate::emit::{FnEmitter, R};
use crate::regs::Rc;
use oclc_ir::{AddrSpace, BuiltinDecl, Scalar, Value};

/// Whether `name` is one of the builtins [`emit`] handles.
pub fn handles(name: &str) -> bool {
    matches!(
        name,
        "async_work_group_copy"
            | "async_work_group_strided_copy"
            | "wait_group_events"
            | "prefetch"
    )
}

fn space(e: &FnEmitter, p: Value) -> R<&'static str> {
    Ok(match e.ptr_space(p)? {
        AddrSpace::Global => ".global",
        AddrSpace::Constant => ".global.nc",
        AddrSpace::Local => ".shared",
        AddrSpace::Private => ".local",
        AddrSpace::Generic => "",
    })
}

/// A size or count argument as a u64 register.
fn u64_arg(e: &mut FnEmitter, v: Value) -> R<String> {
    let r = e.reg(v, 0)?;
    let s = e.elem(v)?;
    if s == Scalar::I64 {
        return Ok(r);
    }
    let z = e.zext32(&r, s.bits());
    let t = e.tmp(Rc::B64);
    e.ins(format!("cvt.u64.u32 {t}, {z}"));
    Ok(t)
}

pub fn emit(e: &mut FnEmitter, decl: &BuiltinDecl, args: &[Value], result: Option<Value>) -> R<()> {
    let name = decl.name.as_str();
    match name {
        "prefetch" => return Ok(()),
        "wait_group_events" => {
            e.ins("bar.sync 0");
            return Ok(());
        }
        _ => {}
    }
    let strided = name == "async_work_group_strided_copy";
    let (dst, src, count, stride, event) = match (strided, args) {
        (false, [d, s, n, ev]) => (*d, *s, *n, None, *ev),
        (true, [d, s, n, st, ev]) => (*d, *s, *n, Some(*st), *ev),
        _ => return Err(e.invalid(format!("`{name}` with the wrong number of arguments"))),
    };
    let es = decl
        .pointee
        .first()
        .copied()
        .flatten()
        .map(|t| t.store_size())
        .ok_or_else(|| e.invalid(format!("`{name}` without an element type")))?;
    let (ds, ss) = (space(e, dst)?, space(e, src)?);
    let to_global = e.ptr_space(dst)? == AddrSpace::Global;
    // Copy in the widest unit that divides the element size.
    let g = [8u32, 4, 2, 1]
        .into_iter()
        .find(|g| es.is_multiple_of(*g))
        .unwrap_or(1);
    let upe = es / g;
    let (ut, rc) = match g {
        8 => ("u64", Rc::B64),
        4 => ("u32", Rc::B32),
        2 => ("u16", Rc::B32),
        _ => ("u8", Rc::B32),
    };
    let n = u64_arg(e, count)?;
    let stride = match stride {
        Some(s) => Some(u64_arg(e, s)?),
        None => None,
    };
    let (dp, sp) = (e.reg(dst, 0)?, e.reg(src, 0)?);
    let total = e.tmp(Rc::B64);
    e.ins(format!("mul.lo.u64 {total}, {n}, {upe}"));
    // Linear local id and work-group size.
    let (tx, ty, tz) = (
        e.special("tid", 0),
        e.special("tid", 1),
        e.special("tid", 2),
    );
    let (nx, ny, nz) = (
        e.special("ntid", 0),
        e.special("ntid", 1),
        e.special("ntid", 2),
    );
    let (lid, lsz) = (e.tmp(Rc::B32), e.tmp(Rc::B32));
    e.ins(format!("mad.lo.u32 {lid}, {ny}, {tz}, {ty}"));
    e.ins(format!("mad.lo.u32 {lid}, {nx}, {lid}, {tx}"));
    e.ins(format!("mul.lo.u32 {lsz}, {nx}, {ny}"));
    e.ins(format!("mul.lo.u32 {lsz}, {lsz}, {nz}"));
    let (i, step, el, part, so, dof, v) = (
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(Rc::B64),
        e.tmp(rc),
    );
    let done = e.tmp(Rc::Pred);
    e.ins(format!("cvt.u64.u32 {i}, {lid}"));
    e.ins(format!("cvt.u64.u32 {step}, {lsz}"));
    let (top, end) = (e.fresh_label(), e.fresh_label());
    e.label(&top);
    e.ins(format!("setp.ge.u64 {done}, {i}, {total}"));
    e.ins(format!("@{done} bra {end}"));
    if upe == 1 {
        e.ins(format!("mov.b64 {el}, {i}"));
        e.ins(format!("mov.b64 {part}, 0"));
    } else {
        e.ins(format!("div.u64 {el}, {i}, {upe}"));
        e.ins(format!("mul.lo.u64 {part}, {el}, {upe}"));
        e.ins(format!("sub.u64 {part}, {i}, {part}"));
    }
    e.ins(format!("mul.lo.u64 {part}, {part}, {g}"));
    // Element offsets: the strided side is the global one.
    let (s_el, d_el) = match &stride {
        Some(st) if to_global => (el.clone(), {
            let t = e.tmp(Rc::B64);
            e.ins(format!("mul.lo.u64 {t}, {el}, {st}"));
            t
        }),
        Some(st) => (
            {
                let t = e.tmp(Rc::B64);
                e.ins(format!("mul.lo.u64 {t}, {el}, {st}"));
                t
            },
            el.clone(),
        ),
        None => (el.clone(), el.clone()),
    };
    e.ins(format!("mad.lo.u64 {so}, {s_el}, {es}, {part}"));
    e.ins(format!("add.u64 {so}, {so}, {sp}"));
    e.ins(format!("mad.lo.u64 {dof}, {d_el}, {es}, {part}"));
    e.ins(format!("add.u64 {dof}, {dof}, {dp}"));
    e.ins(format!("ld{ss}.{ut} {v}, [{so}]"));
    e.ins(format!("st{ds}.{ut} [{dof}], {v}"));
    e.ins(format!("add.u64 {i}, {i}, {step}"));
    e.ins(format!("bra {top}"));
    e.label(&end);
    if let Some(r) = result {
        let (d, ev) = (e.reg(r, 0)?, e.reg(event, 0)?);
        let rc = Rc::of_type(e.ty(r)?);
        e.ins(format!("mov.{} {d}, {ev}", rc.mov()));
    }
    Ok(())
}

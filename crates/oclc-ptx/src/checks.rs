//! `--checks` on the cuda device ([`crate::PtxOptions::checks`]): every load, store and
//! atomic is checked in the kernel (NULL, bounds of its buffer, `__local`, `__constant` or
//! private object, writes to `__constant`, wrong-space casts) and barriers check that every
//! work-item of the group reached the same one. A failed check records the fault in device
//! memory (lowest work-group, then lowest work-item wins) and ends the work-item without the
//! access, so the context stays usable; the host words it as the cpu device does.
//!
//! - **Roots.** Each pointer value is traced ([`roots`]) to the object it was derived from: a
//!   kernel parameter, a program-scope variable, a `__local` variable or a private slot. A
//!   rooted access costs one NULL and one bounds compare-and-branch against that object. An
//!   unrooted one (a pointer read from memory) is looked up in the launch's table of
//!   buffers (`__global`), checked against the work-group's `__local` block, or only
//!   against NULL (`__private`).
//! - **The table** ([`TABLE`], `.const` memory): the fault record's address, the launch
//!   region, the entry count, then (base, size) per kernel parameter and per program-scope
//!   variable, written by the host before each launch.
//! - **Barriers.** Work-item 0 publishes its barrier's site in the reserved head of the
//!   shared block; after `barrier.sync` every work-item compares, and a `barrier.red.and`
//!   tells all whether they agree; a returning work-item takes part with [`EXIT_SITE`]. On
//!   disagreement the lowest work-item that differs records the fault and all leave.

use crate::emit::FnEmitter;
use crate::error::PtxError;
use crate::regs::Rc;
use oclc_ir::{AddrSpace, Block, Function, Op, ParamKind, Type, Value};
use oclc_syntax::Span;

type R<T> = Result<T, PtxError>;

/// The module's check table in `.const` memory.
pub const TABLE: &str = "__oclc_chk";
/// Table header: fault record address, region index, entry count, unused (8 bytes each).
pub const HEADER_BYTES: u32 = 32;
/// Most table entries: the kernel's parameters, then the program-scope variables.
pub const MAX_ENTRIES: u32 = 512;
/// Bytes of the table.
pub const TABLE_BYTES: u32 = HEADER_BYTES + 16 * MAX_ENTRIES;
/// Bytes of the fault record (see [`Record`]).
pub const RECORD_BYTES: usize = 128;
/// `__global` and generic addresses below this are NULL plus an offset (the cpu device's
/// `RAW_MIN`).
pub const NULL_AREA: u64 = 4096;
/// The barrier "site" of a work-item that returns, in the divergence protocol.
pub const EXIT_SITE: u32 = u32::MAX;

/// Fault kinds as the record stores them.
pub mod kind {
    pub const NULL: u32 = 1;
    pub const OUT_OF_BOUNDS: u32 = 2;
    pub const WRONG_SPACE: u32 = 3;
    pub const WRITE_CONSTANT: u32 = 4;
    pub const DIVERGENCE: u32 = 5;
    /// A `__global` address in no buffer of the launch.
    pub const UNMAPPED: u32 = 6;
}

/// Where a pointer value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// Nothing yet (the analysis' start) or only NULL constants.
    None,
    /// Kernel parameter `k` (a buffer or a `__local` argument).
    Param(u32),
    /// Program-scope variable `g`.
    Global(u32),
    /// Kernel-scope `__local` variable `l`.
    Local(u32),
    /// The private slot that value `v` (a `StackAlloc`) addresses.
    Alloca(u32),
    /// Several objects, or a pointer read from memory or made from an integer.
    Unknown,
}

impl Root {
    fn meet(self, o: Root) -> Root {
        match (self, o) {
            (Root::None, x) | (x, Root::None) => x,
            (a, b) if a == b => a,
            _ => Root::Unknown,
        }
    }
}

/// What the checks know of a pointer value: its root, and whether it may be NULL (it
/// merges a NULL constant or a `to_global`-style test that may fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtrFact {
    pub root: Root,
    pub nullable: bool,
}

impl PtrFact {
    const NONE: PtrFact = PtrFact {
        root: Root::None,
        nullable: false,
    };

    fn meet(self, o: PtrFact) -> PtrFact {
        PtrFact {
            root: self.root.meet(o.root),
            nullable: self.nullable || o.nullable,
        }
    }

    fn of(root: Root) -> PtrFact {
        PtrFact {
            root,
            nullable: false,
        }
    }
}

/// The facts of every value of `f` (non-pointers: no root); kernel parameters are roots
/// only in a kernel (the cuda device takes no NULL buffer argument).
pub fn roots(f: &Function) -> Vec<PtrFact> {
    let mut r = vec![PtrFact::NONE; f.values.len()];
    let set = |r: &mut Vec<PtrFact>, v: Value, x: PtrFact| -> bool {
        match r.get_mut(v.index()) {
            Some(slot) if *slot != slot.meet(x) => {
                *slot = slot.meet(x);
                true
            }
            _ => false,
        }
    };
    for (k, p) in f.params_of(Block(0)).iter().enumerate() {
        let x = if f.is_kernel() {
            PtrFact::of(Root::Param(k as u32))
        } else {
            PtrFact {
                root: Root::Unknown,
                nullable: true,
            }
        };
        if matches!(f.value_type(*p), Some(Type::Ptr(_))) {
            set(&mut r, *p, x);
        }
    }
    let unknown = PtrFact {
        root: Root::Unknown,
        nullable: true,
    };
    // Block parameters of loops need a fixpoint; the lattice is shallow.
    for _ in 0..f.values.len().max(1) {
        let mut changed = false;
        for b in &f.blocks {
            for &i in &b.insts {
                let Some(d) = f.insts.get(i.index()) else {
                    continue;
                };
                let get = |r: &[PtrFact], v: &Value| r.get(v.index()).copied().unwrap_or(unknown);
                if let Some(res) = d.result
                    && matches!(f.value_type(res), Some(Type::Ptr(_)))
                {
                    let x = match &d.op {
                        Op::PtrAdd(p, _) | Op::ToGeneric(p) | Op::FromGeneric(p, _) => get(&r, p),
                        Op::SpaceTest(p, _) => PtrFact {
                            nullable: true,
                            ..get(&r, p)
                        },
                        Op::Select(_, a, b) => get(&r, a).meet(get(&r, b)),
                        Op::GlobalAddr(g) => PtrFact::of(Root::Global(g.0)),
                        Op::LocalAddr(l) => PtrFact::of(Root::Local(l.0)),
                        Op::StackAlloc { .. } => PtrFact::of(Root::Alloca(res.0)),
                        Op::Const(_) => PtrFact {
                            root: Root::None,
                            nullable: true,
                        },
                        _ => unknown,
                    };
                    changed |= set(&mut r, res, x);
                }
                for call in d.op.successors() {
                    let params = f.params_of(call.block).to_vec();
                    for (p, a) in params.iter().zip(&call.args) {
                        if matches!(f.value_type(*p), Some(Type::Ptr(_))) {
                            let x = get(&r, a);
                            changed |= set(&mut r, *p, x);
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    r
}

/// The size of a rooted object: known when emitting, or in a register (a parameter's).
enum Extent {
    Static(u64),
    Reg(String),
}

/// One checked operation of the module, by site id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckSite {
    pub span: Span,
    /// "read", "write", "atomic operation"; "barrier" for a barrier.
    pub what: &'static str,
    /// The space of the accessing pointer's type.
    pub space: AddrSpace,
    pub object: Object,
}

/// The object a checked access was proven to address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Object {
    /// Kernel parameter `k` (its name and space are the kernel's; its size the launch's).
    Param(u32),
    /// Program-scope variable `g`.
    Global(u32),
    /// Kernel-scope `__local` variable `l`.
    Local(u32),
    /// A private variable (its message name) of `size` bytes.
    Private { name: String, size: u64 },
    /// Found at run time (a table entry), or none.
    Unknown,
}

/// The fault record a launch leaves, as read back by the host.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub site: u32,
    pub kind: u32,
    /// Table entry the address was found in (unrooted `__global` accesses), else `u32::MAX`.
    pub entry: u32,
    /// Byte offset from the object's start (out of bounds) or the address (unmapped).
    pub value: u64,
    pub len: u64,
    pub ctaid: [u32; 3],
    pub tid: [u32; 3],
    pub region: u32,
    /// Wrong space: the space code pointed into; divergence: work-item 0's barrier site.
    pub extra: u32,
    /// Which of the work-groups a coarsened block runs (0 without coarsening).
    pub copy: u32,
}

/// The record's initial bytes: no fault (key `u64::MAX`).
pub fn empty_record() -> [u8; RECORD_BYTES] {
    let mut b = [0u8; RECORD_BYTES];
    b[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    b
}

impl Record {
    /// The fault in `bytes` (a record after a launch), if one was recorded.
    pub fn decode(bytes: &[u8]) -> Option<Record> {
        let u64_at = |o: usize| {
            bytes
                .get(o..o + 8)
                .and_then(|s| s.try_into().ok())
                .map_or(0, u64::from_le_bytes)
        };
        let u32_at = |o: usize| {
            bytes
                .get(o..o + 4)
                .and_then(|s| s.try_into().ok())
                .map_or(0, u32::from_le_bytes)
        };
        if u64_at(0) == u64::MAX {
            return None;
        }
        Some(Record {
            site: u32_at(12),
            kind: u32_at(16),
            entry: u32_at(20),
            value: u64_at(24),
            len: u64_at(32),
            ctaid: [u32_at(40), u32_at(44), u32_at(48)],
            tid: [u32_at(52), u32_at(56), u32_at(60)],
            region: u32_at(64),
            extra: u32_at(68),
            copy: u32_at(72),
        })
    }
}

/// Space codes in the record.
pub fn space_code(s: AddrSpace) -> u32 {
    match s {
        AddrSpace::Global => 1,
        AddrSpace::Constant => 2,
        AddrSpace::Local => 3,
        AddrSpace::Private => 4,
        AddrSpace::Generic => 0,
    }
}

/// The space of a record's space code.
pub fn space_of_code(c: u32) -> AddrSpace {
    match c {
        1 => AddrSpace::Global,
        2 => AddrSpace::Constant,
        3 => AddrSpace::Local,
        4 => AddrSpace::Private,
        _ => AddrSpace::Generic,
    }
}

/// Per-function state of the checks.
#[derive(Default)]
pub struct FnChecks {
    pub roots: Vec<PtrFact>,
    /// The instruction defining each value (block parameters: none).
    defs: Vec<Option<usize>>,
    /// Whether the kernel (or what it calls) has barriers: a work-item that leaves takes
    /// part in the divergence protocol.
    pub barriers: bool,
    tail: bool,
    /// Whether bounds checks of loads and stores defer their branch ([`FnEmitter::flush_checks`]).
    defer: bool,
    /// The site and access length of each deferred check of the current block, in order
    /// (none pending when empty).
    pending: Vec<(u32, u64)>,
    /// The failure predicate of the access being emitted, when its check is deferred.
    own: Option<String>,
}

/// One access's bounds check, branching at once or deferred to its block's end
/// ([`FnEmitter::flush_checks`]).
struct BoundsCheck {
    site: u32,
    /// The register of the byte offset from the object's start.
    off: String,
    len: u64,
    /// The largest in-bounds offset: `n - len`, or the size register (`size - len`, with
    /// sizes below `len` failing).
    limit: Limit,
}

enum Limit {
    Static(u64),
    Size(String),
}

/// Operations that may run after a failed deferred check of their block: the removable
/// ones (arithmetic, address computations, queries) and the (predicated) loads and stores.
fn is_quiet(op: &Op) -> bool {
    oclc_ir::passes::util::is_removable(op) || matches!(op, Op::Load(_) | Op::Store { .. })
}

impl FnChecks {
    pub fn new(f: &Function, barriers: bool) -> FnChecks {
        let mut defs = vec![None; f.values.len()];
        for (i, d) in f.insts.iter().enumerate() {
            if let Some(r) = d.result
                && let Some(slot) = defs.get_mut(r.index())
            {
                *slot = Some(i);
            }
        }
        FnChecks {
            roots: roots(f),
            defs,
            barriers,
            tail: false,
            defer: std::env::var("OCLC_CUDA_CHECKS_DEFER").map_or(true, |v| v != "0"),
            pending: Vec::new(),
            own: None,
        }
    }
}

/// The fixed registers of the fault path.
const CK_REGS: [(&str, Rc); 12] = [
    ("%ck_kind", Rc::B32),
    ("%ck_site", Rc::B32),
    ("%ck_entry", Rc::B32),
    ("%ck_extra", Rc::B32),
    ("%ck_val", Rc::B64),
    ("%ck_len", Rc::B64),
    ("%ck_key", Rc::B64),
    ("%ck_old", Rc::B64),
    ("%ck_rec", Rc::B64),
    ("%ck_t", Rc::B32),
    ("%ck_u", Rc::B32),
    ("%ck_p", Rc::Pred),
];

impl FnEmitter<'_> {
    fn checks_on(&self) -> bool {
        self.chk.is_some()
    }

    fn fact(&self, p: Value) -> PtrFact {
        self.chk
            .as_ref()
            .and_then(|c| c.roots.get(p.index()).copied())
            .unwrap_or(PtrFact {
                root: Root::Unknown,
                nullable: true,
            })
    }

    fn site(&mut self, what: &'static str, space: AddrSpace, object: Object) -> u32 {
        let mut s = self.cx.check_sites.borrow_mut();
        s.push(CheckSite {
            span: self.cur_span,
            what,
            space,
            object,
        });
        (s.len() - 1) as u32
    }

    /// A cold stub that records fault `kind` at `site` (with the given value, length, entry
    /// and extra registers or immediates) and jumps to the record writer; returns its label.
    fn fault_stub(
        &mut self,
        kind: u32,
        site: u32,
        val: &str,
        len: u64,
        entry: &str,
        extra: &str,
    ) -> R<String> {
        let l = self.fresh_label();
        let (val, entry, extra) = (val.to_string(), entry.to_string(), extra.to_string());
        self.cold(|em| {
            em.label(&l);
            em.ins(format!("mov.u32 %ck_kind, {kind}"));
            em.ins(format!("mov.u32 %ck_site, {site}"));
            match val.strip_prefix("s32:") {
                Some(r) => em.ins(format!("cvt.s64.s32 %ck_val, {r}")),
                None => em.ins(format!("mov.u64 %ck_val, {val}")),
            }
            em.ins(format!("mov.u64 %ck_len, {len}"));
            em.ins(format!("mov.u32 %ck_entry, {entry}"));
            em.ins(format!("mov.u32 %ck_extra, {extra}"));
            em.ins("bra.uni $CHKF");
            Ok(())
        })?;
        self.ensure_tail()?;
        Ok(l)
    }

    /// Checks an access of `len` bytes through `p` (before it is made).
    pub(crate) fn check_access(
        &mut self,
        p: Value,
        len: u64,
        write: bool,
        what: &'static str,
    ) -> R<()> {
        let Some(c) = self.chk.as_mut() else {
            return Ok(());
        };
        c.own = None;
        let sp = self.ptr_space(p)?;
        let pr = self.reg(p, 0)?;
        let fact = self.fact(p);
        let root = fact.root;
        let extent = self.root_extent(root)?;
        if let Some((rsp, _, Extent::Static(n))) = &extent
            && !fact.nullable
            && (sp == AddrSpace::Generic || sp == *rsp)
            && !(write && *rsp == AddrSpace::Constant)
            && self
                .static_offsets(p)
                .is_some_and(|(_, hi)| hi.checked_add(len).is_some_and(|end| end <= *n))
        {
            // Proven in bounds from the offsets' value ranges.
            return Ok(());
        }
        let object = self.object_of(root);
        let site = self.site(what, sp, object);
        // NULL: 0 in every space. As on the cpu device, an address below 4096 that is not a
        // `__local` or private one is NULL plus an offset. A rooted pointer that is never
        // NULL needs no test: an address near 0 is out of its object's bounds.
        if fact.nullable || extent.is_none() {
            let null = self.fault_stub(kind::NULL, site, "0", len, "4294967295", "0")?;
            let isnull = self.tmp(Rc::Pred);
            match sp {
                AddrSpace::Local | AddrSpace::Private => {
                    self.ins(format!("setp.eq.u64 {isnull}, {pr}, 0"))
                }
                _ => self.ins(format!("setp.lt.u64 {isnull}, {pr}, {NULL_AREA}")),
            }
            self.ins(format!("@{isnull} bra {null}"));
        }
        let Some((rsp, base, size)) = extent else {
            return self.check_unrooted(sp, &pr, len, site);
        };
        let reads_constant = sp == AddrSpace::Global && rsp == AddrSpace::Constant && !write;
        if sp != AddrSpace::Generic && sp != rsp && !reads_constant {
            // A cast from generic to a space the pointer does not point into.
            let code = space_code(rsp);
            let l = self.fault_stub(
                kind::WRONG_SPACE,
                site,
                "0",
                len,
                "4294967295",
                &code.to_string(),
            )?;
            self.ins(format!("bra.uni {l}"));
            return Ok(());
        }
        if write && rsp == AddrSpace::Constant {
            let l = self.fault_stub(kind::WRITE_CONSTANT, site, "0", len, "4294967295", "0")?;
            self.ins(format!("bra.uni {l}"));
            return Ok(());
        }
        // The address in the root's window.
        let addr = if sp == AddrSpace::Generic {
            let a = self.tmp(Rc::B64);
            match rsp {
                AddrSpace::Local => self.ins(format!("cvta.to.shared.u64 {a}, {pr}")),
                AddrSpace::Private => self.ins(format!("cvta.to.local.u64 {a}, {pr}")),
                _ => self.ins(format!("mov.b64 {a}, {pr}")),
            }
            a
        } else {
            pr
        };
        if let (AddrSpace::Local | AddrSpace::Private, Extent::Static(n)) = (rsp, &size)
            && *n >= len
            && *n <= u32::MAX as u64
        {
            // Shared- and local-window addresses are below 2^32: compare in 32 bits.
            let (a32, b32, o32) = (self.tmp(Rc::B32), self.tmp(Rc::B32), self.tmp(Rc::B32));
            let bad = self.tmp(Rc::Pred);
            self.ins(format!("cvt.u32.u64 {a32}, {addr}"));
            self.ins(format!("cvt.u32.u64 {b32}, {base}"));
            self.ins(format!("sub.u32 {o32}, {a32}, {b32}"));
            self.ins(format!("setp.gt.u32 {bad}, {o32}, {}", n - len));
            let oob = self.fault_stub(
                kind::OUT_OF_BOUNDS,
                site,
                &format!("s32:{o32}"),
                len,
                "4294967295",
                "0",
            )?;
            self.ins(format!("@{bad} bra {oob}"));
            return Ok(());
        }
        // In bounds iff `addr - base <= size - len` (unsigned; below the base wraps high).
        let off = self.tmp(Rc::B64);
        self.ins(format!("sub.u64 {off}, {addr}, {base}"));
        let limit = match size {
            Extent::Static(n) if n < len => {
                let oob =
                    self.fault_stub(kind::OUT_OF_BOUNDS, site, &off, len, "4294967295", "0")?;
                self.ins(format!("bra.uni {oob}"));
                return Ok(());
            }
            Extent::Static(n) => Limit::Static(n - len),
            Extent::Reg(r) => Limit::Size(r),
        };
        let global = matches!(rsp, AddrSpace::Global | AddrSpace::Constant);
        let d = BoundsCheck {
            site,
            off,
            len,
            limit,
        };
        let bad = self.out_of_bounds(&d);
        if global && self.chk.as_ref().is_some_and(|c| c.defer) {
            self.record_first(&bad, &d);
            if let Some(c) = self.chk.as_mut() {
                c.pending.push((d.site, d.len));
                c.own = Some(bad);
            }
        } else {
            let oob = self.fault_stub(kind::OUT_OF_BOUNDS, site, &d.off, len, "4294967295", "0")?;
            self.ins(format!("@{bad} bra {oob}"));
        }
        Ok(())
    }

    /// `Op::InBounds`: a predicate register that holds when `len` bytes (register `len`)
    /// through `p` pass the checks of reading and writing them: without checks always; with
    /// them, for a pointer rooted in a writable object of its own space whose bounds hold
    /// them. Pointers the checks find only at run time (no root) give false: the caller then
    /// takes its path of checked accesses.
    pub(crate) fn in_bounds(&mut self, p: Value, len: &str) -> R<String> {
        let ok = self.tmp(Rc::Pred);
        if !self.checks_on() {
            self.ins(format!("setp.eq.u32 {ok}, 0, 0"));
            return Ok(ok);
        }
        let sp = self.ptr_space(p)?;
        let pr = self.reg(p, 0)?;
        let fact = self.fact(p);
        let extent = self.root_extent(fact.root)?;
        let Some((rsp, base, size)) = extent.filter(|(rsp, ..)| {
            (sp == AddrSpace::Generic || sp == *rsp) && *rsp != AddrSpace::Constant
        }) else {
            self.ins(format!("setp.ne.u32 {ok}, 0, 0"));
            return Ok(ok);
        };
        let addr = match (sp, rsp) {
            (AddrSpace::Generic, AddrSpace::Local | AddrSpace::Private) => {
                let a = self.tmp(Rc::B64);
                let to = if rsp == AddrSpace::Local {
                    "shared"
                } else {
                    "local"
                };
                self.ins(format!("cvta.to.{to}.u64 {a}, {pr}"));
                a
            }
            _ => pr.clone(),
        };
        // `len <= size` and `addr - base <= size - len` (below the base wraps high).
        let size = match size {
            Extent::Static(n) => n.to_string(),
            Extent::Reg(r) => r,
        };
        let (off, lim) = (self.tmp(Rc::B64), self.tmp(Rc::B64));
        self.ins(format!("sub.u64 {off}, {addr}, {base}"));
        self.ins(format!("sub.u64 {lim}, {size}, {len}"));
        self.ins(format!("setp.le.u64 {ok}, {len}, {size}"));
        self.ins(format!("setp.le.and.u64 {ok}, {off}, {lim}, {ok}"));
        if fact.nullable {
            // NULL plus an offset is never in an object.
            match rsp {
                AddrSpace::Local | AddrSpace::Private => {
                    self.ins(format!("setp.ne.and.u64 {ok}, {pr}, 0, {ok}"))
                }
                _ => self.ins(format!("setp.ge.and.u64 {ok}, {pr}, {NULL_AREA}, {ok}")),
            }
        }
        Ok(ok)
    }

    /// Keeps the site and offset of the block's first failed deferred check (registers
    /// `%ck_dsite`, `%ck_doff`) and accumulates failures in `%ck_acc`. Recording them here
    /// costs a few predicated moves; finding them again at the flush would keep every
    /// checked offset of the block live until then (85 instead of 40 registers in the
    /// reduction's unrolled loop, half its speed).
    fn record_first(&mut self, bad: &str, d: &BoundsCheck) {
        self.declare("%ck_dsite", Rc::B32);
        self.declare("%ck_doff", Rc::B64);
        let (first, clean) = (self.tmp(Rc::Pred), self.tmp(Rc::Pred));
        self.ins(format!("not.pred {clean}, %ck_acc"));
        self.ins(format!("and.pred {first}, {bad}, {clean}"));
        self.ins(format!("@{first} mov.u32 %ck_dsite, {}", d.site));
        self.ins(format!("@{first} mov.u64 %ck_doff, {}", d.off));
        self.ins(format!("or.pred %ck_acc, %ck_acc, {bad}"));
    }

    /// The predicate of check `d` failing: `off > size - len` unsigned (below the object's
    /// start wraps high), or a size below `len`.
    fn out_of_bounds(&mut self, d: &BoundsCheck) -> String {
        let bad = self.tmp(Rc::Pred);
        match &d.limit {
            Limit::Static(lim) => self.ins(format!("setp.gt.u64 {bad}, {}, {lim}", d.off)),
            Limit::Size(r) => {
                let (lim, small) = (self.tmp(Rc::B64), self.tmp(Rc::Pred));
                self.ins(format!("sub.u64 {lim}, {r}, {}", d.len));
                self.ins(format!("setp.lt.u64 {small}, {r}, {}", d.len));
                self.ins(format!("setp.gt.or.u64 {bad}, {}, {lim}, {small}", d.off));
            }
        }
        bad
    }

    /// Predicates the memory instructions emitted since `mark` (one access) on its own
    /// deferred check passing. Accesses after a failed one still run when their own checks
    /// pass (in bounds, so harmless; the block's end reports the first failure): predicating
    /// them all on the block's state makes ptxas branch around atomics and serialize the
    /// loads between them.
    pub(crate) fn guard_access(&mut self, mark: usize) {
        let Some(bad) = self.chk.as_mut().and_then(|c| c.own.take()) else {
            return;
        };
        let tail = self.body.split_off(mark.min(self.body.len()));
        for line in tail.split_inclusive('\n') {
            let memory = ["\tld.", "\tst.", "\tatom.", "\tred."];
            if memory.iter().any(|m| line.starts_with(m)) {
                self.body.push_str(&format!("\t@!{bad} "));
                self.body.push_str(&line[1..]);
            } else {
                self.body.push_str(line);
            }
        }
    }

    /// Takes the deferred branch to the fault path if a check of the block failed: before
    /// a terminator and any operation other than arithmetic, loads, stores and
    /// single-instruction atomics. The cold side reports the block's first failed check (its
    /// site picks the access's length), as the cpu device reports it.
    pub(crate) fn flush_checks(&mut self, op: &Op) -> R<()> {
        let guardable = self.guardable_atomic(op);
        let Some(c) = self.chk.as_mut() else {
            return Ok(());
        };
        if c.pending.is_empty() || is_quiet(op) || guardable {
            return Ok(());
        }
        let pending = std::mem::take(&mut c.pending);
        let l = self.fresh_label();
        self.ins(format!("@%ck_acc bra {l}"));
        self.ensure_tail()?;
        self.cold(|em| {
            em.label(&l);
            for &(site, len) in &pending {
                let this = em.tmp(Rc::Pred);
                let oob = em.fault_stub(
                    kind::OUT_OF_BOUNDS,
                    site,
                    "%ck_doff",
                    len,
                    "4294967295",
                    "0",
                )?;
                em.ins(format!("setp.eq.u32 {this}, %ck_dsite, {site}"));
                em.ins(format!("@{this} bra {oob}"));
            }
            // Not reached: the recorded site is one of the block's.
            em.ins("trap");
            Ok(())
        })
    }

    /// An atomic read-modify-write that is one `atom`/`red` instruction (32- or 64-bit
    /// integer, not private): it is predicated like a load or store after a deferred check.
    pub(crate) fn guardable_atomic(&self, op: &Op) -> bool {
        let Op::AtomicRmw { op, ptr, value, .. } = op else {
            return false;
        };
        let Ok(Type::Scalar(s)) = self.ty(*value) else {
            return false;
        };
        s.is_int()
            && matches!(s.bits(), 32 | 64)
            && *op != oclc_ir::RmwOp::FAdd
            && !matches!(self.ptr_space(*ptr), Ok(AddrSpace::Private) | Err(_))
    }

    /// Checks the accesses of atomics and of `memcpy`/`memset` with a constant length
    /// (loads and stores check themselves).
    pub(crate) fn check_memory_op(&mut self, d: &oclc_ir::InstData) -> R<()> {
        // Their accesses are not predicated (but for single-instruction atomics): their
        // checks branch at once.
        let guardable = self.guardable_atomic(&d.op);
        let defer = self.chk.as_mut().map(|c| {
            let keep = c.defer && guardable;
            std::mem::replace(&mut c.defer, keep)
        });
        let r = self.check_memory_op_now(d);
        if let (Some(c), Some(v)) = (self.chk.as_mut(), defer) {
            c.defer = v;
        }
        r
    }

    fn check_memory_op_now(&mut self, d: &oclc_ir::InstData) -> R<()> {
        let size = |em: &Self, v: Value| em.ty(v).map(|t| t.store_size() as u64);
        match &d.op {
            Op::AtomicRmw { ptr, value, .. } | Op::AtomicStore { ptr, value, .. } => {
                let n = size(self, *value)?;
                self.check_access(*ptr, n, true, "atomic operation")
            }
            Op::AtomicCmpXchg { ptr, expected, .. } => {
                let n = size(self, *expected)?;
                self.check_access(*ptr, n, true, "atomic operation")
            }
            Op::AtomicLoad { ptr, .. } => match d.result {
                Some(r) => {
                    let n = size(self, r)?;
                    self.check_access(*ptr, n, false, "atomic operation")
                }
                None => Ok(()),
            },
            Op::Memcpy { dst, src, len } => match self.const_int(*len) {
                Some(n) if n > 0 => {
                    self.check_access(*src, n, false, "read")?;
                    self.check_access(*dst, n, true, "write")
                }
                _ => Ok(()),
            },
            Op::Memset { dst, len, .. } => match self.const_int(*len) {
                Some(n) if n > 0 => self.check_access(*dst, n, true, "write"),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// The byte offsets `p` may have from its root object, when every `ptradd` from the
    /// object's address to `p` adds a non-negative offset of known range.
    fn static_offsets(&self, p: Value) -> Option<(u64, u64)> {
        let defs = &self.chk.as_ref()?.defs;
        let (mut lo, mut hi) = (0u64, 0u64);
        let mut v = p;
        for _ in 0..64 {
            let i = defs.get(v.index()).copied().flatten()?;
            match &self.f.insts.get(i)?.op {
                Op::PtrAdd(q, o) => {
                    let r = self.ranges.of(*o)?;
                    if r.hi >= 1 << 40 {
                        return None;
                    }
                    lo = lo.checked_add(r.lo)?;
                    hi = hi.checked_add(r.hi)?;
                    v = *q;
                }
                Op::ToGeneric(q) | Op::FromGeneric(q, _) => v = *q,
                Op::LocalAddr(_) | Op::StackAlloc { .. } | Op::GlobalAddr(_) => {
                    return Some((lo, hi));
                }
                _ => return None,
            }
        }
        None
    }

    fn object_of(&self, root: Root) -> Object {
        match root {
            Root::Param(k) => Object::Param(k),
            Root::Global(g) => Object::Global(g),
            Root::Local(l) => Object::Local(l),
            Root::Alloca(v) => {
                let (name, size) = self.alloca_info(v);
                Object::Private { name, size }
            }
            Root::None | Root::Unknown => Object::Unknown,
        }
    }

    /// The private variable value `v` addresses: its message name and size.
    fn alloca_info(&self, v: u32) -> (String, u64) {
        for d in &self.f.insts {
            if d.result.map(|r| r.0) == Some(v)
                && let Op::StackAlloc { size, name, .. } = &d.op
            {
                let n = if name.as_str().is_empty() {
                    "a temporary".to_string()
                } else {
                    format!("variable `{}`", name.as_str())
                };
                return (n, *size as u64);
            }
        }
        ("a temporary".into(), 0)
    }

    /// The space, base register and size (register or immediate) of a rooted object.
    fn root_extent(&mut self, root: Root) -> R<Option<(AddrSpace, String, Extent)>> {
        Ok(match root {
            Root::Param(k) => {
                let p = self.f.params.get(k as usize).map(|p| p.kind.clone());
                let sp = match p {
                    Some(ParamKind::Buffer(sp)) => sp,
                    _ => return Ok(None),
                };
                let v = *self
                    .f
                    .params_of(Block(0))
                    .get(k as usize)
                    .ok_or_else(|| self.invalid("parameter without a value"))?;
                let base = self.reg(v, 0)?;
                let size = self.tmp(Rc::B64);
                let at = HEADER_BYTES + 16 * k + 8;
                self.ins(format!("ld.const.u64 {size}, [{TABLE}+{at}]"));
                Some((sp, base, Extent::Reg(size)))
            }
            Root::Global(g) => {
                let Some(gv) = self.cx.m.globals.get(g as usize) else {
                    return Ok(None);
                };
                let base = self.tmp(Rc::B64);
                let sym = crate::emit::global_symbol(g as usize, &gv.name);
                self.ins(format!("mov.u64 {base}, {sym}"));
                Some((gv.space, base, Extent::Static(gv.size)))
            }
            Root::Local(l) => {
                let Some(off) = self.cx.local_offsets.get(&l).copied() else {
                    return Ok(None);
                };
                let size = self.cx.m.locals.get(l as usize).map_or(0, |x| x.size);
                let base = self.tmp(Rc::B64);
                self.ins(format!("mov.u64 {base}, __oclc_shared"));
                self.ins(format!("add.u64 {base}, {base}, {off}"));
                Some((AddrSpace::Local, base, Extent::Static(size)))
            }
            Root::Alloca(v) => {
                let (_, size) = self.alloca_info(v);
                let base = self.reg(Value(v), 0)?;
                Some((AddrSpace::Private, base, Extent::Static(size)))
            }
            Root::None | Root::Unknown => None,
        })
    }

    /// Checks an access through a pointer of unknown origin (not NULL).
    fn check_unrooted(&mut self, sp: AddrSpace, pr: &str, len: u64, site: u32) -> R<()> {
        match sp {
            AddrSpace::Global | AddrSpace::Constant => self.scan_global(pr, len, site),
            AddrSpace::Local => self.check_shared_block(pr, len, site),
            AddrSpace::Private => Ok(()),
            AddrSpace::Generic => {
                let done = self.fresh_label();
                let (g, s) = (self.tmp(Rc::Pred), self.tmp(Rc::Pred));
                let not_global = self.fresh_label();
                self.ins(format!("isspacep.global {g}, {pr}"));
                self.ins(format!("@!{g} bra {not_global}"));
                self.scan_global(pr, len, site)?;
                self.ins(format!("bra.uni {done}"));
                self.label(&not_global);
                self.ins(format!("isspacep.shared {s}, {pr}"));
                let not_shared = self.fresh_label();
                self.ins(format!("@!{s} bra {not_shared}"));
                let a = self.tmp(Rc::B64);
                self.ins(format!("cvta.to.shared.u64 {a}, {pr}"));
                self.check_shared_block(&a, len, site)?;
                self.ins(format!("bra.uni {done}"));
                self.label(&not_shared);
                let l = self.tmp(Rc::Pred);
                self.ins(format!("isspacep.local {l}, {pr}"));
                let un = self.fault_stub(kind::UNMAPPED, site, pr, len, "4294967295", "0")?;
                self.ins(format!("@!{l} bra {un}"));
                self.label(&done);
                Ok(())
            }
        }
    }

    /// A `__global` address must lie in one of the launch's table entries.
    fn scan_global(&mut self, pr: &str, len: u64, site: u32) -> R<()> {
        let (n, i) = (self.tmp(Rc::B32), self.tmp(Rc::B32));
        let (e, b, s, off, end) = (
            self.tmp(Rc::B64),
            self.tmp(Rc::B64),
            self.tmp(Rc::B64),
            self.tmp(Rc::B64),
            self.tmp(Rc::B64),
        );
        let (p, q) = (self.tmp(Rc::Pred), self.tmp(Rc::Pred));
        let (lp, found, ok) = (self.fresh_label(), self.fresh_label(), self.fresh_label());
        self.ins(format!("ld.const.u32 {n}, [{TABLE}+16]"));
        self.ins(format!("mov.u32 {i}, 0"));
        self.label(&lp);
        let near = self.near_stub(pr, len, site)?;
        self.ins(format!("setp.ge.u32 {p}, {i}, {n}"));
        self.ins(format!("@{p} bra {near}"));
        self.ins(format!("mov.u64 {e}, {TABLE}"));
        self.ins(format!("mad.wide.u32 {e}, {i}, 16, {e}"));
        self.ins(format!("ld.const.u64 {b}, [{e}+{HEADER_BYTES}]"));
        self.ins(format!("ld.const.u64 {s}, [{e}+{}]", HEADER_BYTES + 8));
        self.ins(format!("sub.u64 {off}, {pr}, {b}"));
        self.ins(format!("setp.lt.u64 {p}, {off}, {s}"));
        self.ins(format!("@{p} bra {found}"));
        self.ins(format!("add.u32 {i}, {i}, 1"));
        self.ins(format!("bra.uni {lp}"));
        self.label(&found);
        self.ins(format!("add.u64 {end}, {off}, {len}"));
        self.ins(format!("setp.le.u64 {q}, {end}, {s}"));
        self.ins(format!("@{q} bra {ok}"));
        let oob = self.fault_stub(kind::OUT_OF_BOUNDS, site, &off, len, &i, "0")?;
        self.ins(format!("bra.uni {oob}"));
        self.label(&ok);
        Ok(())
    }

    /// Cold: an address in no entry is out of bounds of the nearest entry within 1 MiB
    /// after its end (or below its start), else unmapped.
    fn near_stub(&mut self, pr: &str, len: u64, site: u32) -> R<String> {
        let l = self.fresh_label();
        let pr = pr.to_string();
        self.ensure_tail()?;
        self.cold(|em| {
            em.label(&l);
            em.ins(format!("ld.const.u32 %ck_t, [{TABLE}+16]"));
            em.ins("mov.u32 %ck_u, 0");
            let lp = em.fresh_label();
            let un = em.fresh_label();
            let hit = em.fresh_label();
            em.label(&lp);
            em.ins("setp.ge.u32 %ck_p, %ck_u, %ck_t");
            em.ins(format!("@%ck_p bra {un}"));
            em.ins(format!("mov.u64 %ck_rec, {TABLE}"));
            em.ins("mad.wide.u32 %ck_rec, %ck_u, 16, %ck_rec");
            em.ins(format!("ld.const.u64 %ck_key, [%ck_rec+{HEADER_BYTES}]"));
            em.ins(format!(
                "ld.const.u64 %ck_old, [%ck_rec+{}]",
                HEADER_BYTES + 8
            ));
            em.ins(format!("sub.u64 %ck_val, {pr}, %ck_key"));
            // Within the entry's size + 1 MiB after its start, or 1 MiB before it.
            em.ins("add.u64 %ck_old, %ck_old, 1048576");
            em.ins("setp.lt.u64 %ck_p, %ck_val, %ck_old");
            em.ins(format!("@%ck_p bra {hit}"));
            em.ins("add.u64 %ck_len, %ck_val, 1048576");
            em.ins("setp.lt.u64 %ck_p, %ck_len, 1048576");
            em.ins(format!("@%ck_p bra {hit}"));
            em.ins("add.u32 %ck_u, %ck_u, 1");
            em.ins(format!("bra.uni {lp}"));
            em.label(&hit);
            em.ins(format!("mov.u32 %ck_kind, {}", kind::OUT_OF_BOUNDS));
            em.ins(format!("mov.u32 %ck_site, {site}"));
            em.ins(format!("mov.u64 %ck_len, {len}"));
            em.ins("mov.u32 %ck_entry, %ck_u");
            em.ins("mov.u32 %ck_extra, 0");
            em.ins("bra.uni $CHKF");
            em.label(&un);
            em.ins(format!("mov.u32 %ck_kind, {}", kind::UNMAPPED));
            em.ins(format!("mov.u32 %ck_site, {site}"));
            em.ins(format!("mov.u64 %ck_val, {pr}"));
            em.ins(format!("mov.u64 %ck_len, {len}"));
            em.ins("mov.u32 %ck_entry, 4294967295");
            em.ins("mov.u32 %ck_extra, 0");
            em.ins("bra.uni $CHKF");
            Ok(())
        })?;
        Ok(l)
    }

    /// An unrooted `__local` address must lie in the work-group's `__local` objects (after
    /// the reserved head, before the end of the dynamic shared block).
    fn check_shared_block(&mut self, pr: &str, len: u64, site: u32) -> R<()> {
        let (off, end, sz) = (self.tmp(Rc::B64), self.tmp(Rc::B64), self.tmp(Rc::B32));
        let (p, q) = (self.tmp(Rc::Pred), self.tmp(Rc::Pred));
        let sz64 = self.tmp(Rc::B64);
        self.ins(format!("mov.u64 {off}, __oclc_shared"));
        self.ins(format!("sub.u64 {off}, {pr}, {off}"));
        self.ins(format!("add.u64 {end}, {off}, {len}"));
        self.ins(format!("mov.u32 {sz}, %dynamic_smem_size"));
        self.ins(format!("cvt.u64.u32 {sz64}, {sz}"));
        self.ins(format!(
            "setp.lt.u64 {p}, {off}, {}",
            crate::SHARED_RESERVED
        ));
        self.ins(format!("setp.gt.u64 {q}, {end}, {sz64}"));
        self.ins(format!("or.pred {p}, {p}, {q}"));
        let un = self.fault_stub(kind::UNMAPPED, site, pr, len, "4294967295", "3")?;
        self.ins(format!("@{p} bra {un}"));
        Ok(())
    }

    /// A barrier (or work-group collective) at the current span: the divergence protocol,
    /// whose `barrier.sync` is the barrier. Without checks, `bar.sync 0`.
    pub(crate) fn checked_barrier(&mut self) -> R<()> {
        if !self.checks_on() {
            self.ins("bar.sync 0");
            return Ok(());
        }
        let site = self.site("barrier", AddrSpace::Local, Object::Unknown);
        self.divergence_protocol(&site.to_string())
    }

    /// Whether this function runs the one-barrier protocol: a kernel with barriers in a
    /// module whose barriers are all in kernels, so the episode count is a register.
    fn fast_protocol(&self) -> bool {
        self.entry && self.cx.kernel_barriers && self.chk.as_ref().is_some_and(|c| c.barriers)
    }

    /// The kernel prologue's part: the episode count and the linear local id.
    pub(crate) fn checks_prologue(&mut self) {
        if self.chk.is_none() {
            return;
        }
        if self.copies() > 1 {
            self.declare("%ck_copy", Rc::B32);
        }
        // No deferred check has failed yet.
        self.declare("%ck_acc", Rc::Pred);
        self.ins("setp.ne.u32 %ck_acc, 0, 0");
        if !self.fast_protocol() {
            return;
        }
        self.declare("%ck_ep", Rc::B32);
        self.declare("%ck_tl", Rc::B32);
        self.ins("mov.u32 %ck_ep, 0");
        let t = self.linear_tid();
        self.ins(format!("mov.u32 %ck_tl, {t}"));
    }

    /// The protocol at barrier site `s` (a register or immediate).
    fn divergence_protocol(&mut self, s: &str) -> R<()> {
        self.ensure_tail()?;
        if self.fast_protocol() {
            return self.fast_divergence_protocol(s);
        }
        let tl = self.linear_tid();
        let (p0, p, ok) = (self.tmp(Rc::Pred), self.tmp(Rc::Pred), self.tmp(Rc::Pred));
        let r = self.tmp(Rc::B32);
        self.ins(format!("setp.eq.u32 {p0}, {tl}, 0"));
        self.ins(format!("@{p0} st.shared.u32 [__oclc_shared], {s}"));
        self.ins(format!("@{p0} st.shared.u32 [__oclc_shared+4], 4294967295"));
        self.ins("barrier.sync 0");
        self.ins(format!("ld.shared.u32 {r}, [__oclc_shared]"));
        self.ins(format!("setp.eq.u32 {p}, {r}, {s}"));
        self.ins(format!("barrier.red.and.pred {ok}, 0, {p}"));
        let div = self.fresh_label();
        self.ins(format!("@!{ok} bra {div}"));
        let (s, r, tl, p) = (s.to_string(), r.clone(), tl.clone(), p.clone());
        self.cold(|em| {
            em.label(&div);
            let (m, q) = (em.tmp(Rc::B32), em.tmp(Rc::Pred));
            em.ins(format!(
                "@!{p} atom.shared.min.u32 {m}, [__oclc_shared+4], {tl}"
            ));
            em.ins("barrier.sync 0");
            em.ins(format!("ld.shared.u32 {m}, [__oclc_shared+4]"));
            em.ins(format!("setp.ne.u32 {q}, {m}, {tl}"));
            em.ins(format!("@{q} exit"));
            em.divergence_stub(&s, &r);
            Ok(())
        })
    }

    /// One barrier: work-item 0 publishes its site in the slot of this episode's parity
    /// (the other slot may still be read by work-items leaving the last barrier); a
    /// work-item that reads another site records the divergence and leaves (a barrier does
    /// not wait for work-items that exited). The episode count orders the fault after any
    /// the group made before this barrier and before any it makes after it.
    fn fast_divergence_protocol(&mut self, s: &str) -> R<()> {
        let (p0, p) = (self.tmp(Rc::Pred), self.tmp(Rc::Pred));
        let (par, slot, r) = (self.tmp(Rc::B32), self.tmp(Rc::B64), self.tmp(Rc::B32));
        self.ins("add.u32 %ck_ep, %ck_ep, 1");
        self.ins(format!("and.b32 {par}, %ck_ep, 1"));
        self.ins(format!("mul.wide.u32 {slot}, {par}, 4"));
        let base = self.tmp(Rc::B64);
        self.ins(format!("mov.u64 {base}, __oclc_shared"));
        self.ins(format!("add.u64 {slot}, {slot}, {base}"));
        self.ins(format!("setp.eq.u32 {p0}, %ck_tl, 0"));
        self.ins(format!("@{p0} st.shared.u32 [{slot}], {s}"));
        self.ins("barrier.sync 0");
        self.ins(format!("ld.shared.u32 {r}, [{slot}]"));
        self.ins(format!("setp.ne.u32 {p}, {r}, {s}"));
        let div = self.fresh_label();
        self.ins(format!("@{p} bra {div}"));
        let (s, r) = (s.to_string(), r.clone());
        self.cold(|em| {
            em.label(&div);
            em.divergence_stub(&s, &r);
            Ok(())
        })
    }

    /// Records a divergence at site `s` (work-item 0 at site `r`).
    fn divergence_stub(&mut self, s: &str, r: &str) {
        self.ins(format!("mov.u32 %ck_kind, {}", kind::DIVERGENCE));
        self.ins(format!("mov.u32 %ck_site, {s}"));
        self.ins("mov.u64 %ck_val, 0");
        self.ins("mov.u64 %ck_len, 0");
        self.ins("mov.u32 %ck_entry, 4294967295");
        self.ins(format!("mov.u32 %ck_extra, {r}"));
        self.ins("bra.uni $CHKF");
    }

    /// The work-item's linear index in its block.
    fn linear_tid(&mut self) -> String {
        let (x, y, z, nx, ny, t) = (
            self.tmp(Rc::B32),
            self.tmp(Rc::B32),
            self.tmp(Rc::B32),
            self.tmp(Rc::B32),
            self.tmp(Rc::B32),
            self.tmp(Rc::B32),
        );
        self.ins(format!("mov.u32 {x}, %tid.x"));
        self.ins(format!("mov.u32 {y}, %tid.y"));
        self.ins(format!("mov.u32 {z}, %tid.z"));
        self.ins(format!("mov.u32 {nx}, %ntid.x"));
        self.ins(format!("mov.u32 {ny}, %ntid.y"));
        self.ins(format!("mad.lo.u32 {t}, {z}, {ny}, {y}"));
        self.ins(format!("mad.lo.u32 {t}, {t}, {nx}, {x}"));
        t
    }

    /// A kernel's return under checks: in a kernel with barriers the work-item takes part
    /// in the protocol as [`EXIT_SITE`] until every work-item of its group is done.
    pub(crate) fn checked_return(&mut self) -> R<bool> {
        let Some(c) = &self.chk else {
            return Ok(false);
        };
        if !(self.entry && c.barriers) {
            return Ok(false);
        }
        self.ensure_tail()?;
        self.ins("bra.uni $CHKEXIT");
        Ok(true)
    }

    /// The record writer `$CHKF` (and, in kernels with barriers, the exit protocol
    /// `$CHKEXIT`), once per function.
    fn ensure_tail(&mut self) -> R<()> {
        match &mut self.chk {
            Some(c) if !c.tail => c.tail = true,
            _ => return Ok(()),
        }
        for (n, rc) in CK_REGS {
            self.declare(n, rc);
        }
        let barriers = self.chk.as_ref().is_some_and(|c| c.barriers) && self.entry;
        self.cold(|em| {
            em.label("$CHKF");
            // Key: region (4 bits), work-group (linear, 36 bits), barrier episode (13 bits,
            // one-barrier protocol), work-item (linear, 11 bits).
            let fast = em.fast_protocol();
            let tl = if fast {
                "%ck_tl".to_string()
            } else {
                em.linear_tid()
            };
            let (a, b, c, gx, gy) = (
                em.tmp(Rc::B32),
                em.tmp(Rc::B32),
                em.tmp(Rc::B32),
                em.tmp(Rc::B32),
                em.tmp(Rc::B32),
            );
            let (g, t64) = (em.tmp(Rc::B64), em.tmp(Rc::B64));
            em.ins(format!("mov.u32 {a}, %ctaid.x"));
            em.ins(format!("mov.u32 {b}, %ctaid.y"));
            em.ins(format!("mov.u32 {c}, %ctaid.z"));
            em.ins(format!("mov.u32 {gx}, %nctaid.x"));
            em.ins(format!("mov.u32 {gy}, %nctaid.y"));
            em.ins(format!("mul.wide.u32 {g}, {c}, {gy}"));
            em.ins(format!("cvt.u64.u32 {t64}, {b}"));
            em.ins(format!("add.u64 {g}, {g}, {t64}"));
            em.ins(format!("cvt.u64.u32 {t64}, {gx}"));
            em.ins(format!("mul.lo.u64 {g}, {g}, {t64}"));
            em.ins(format!("cvt.u64.u32 {t64}, {a}"));
            em.ins(format!("add.u64 {g}, {g}, {t64}"));
            em.ins(format!("shl.b64 {g}, {g}, 24"));
            em.ins(format!("cvt.u64.u32 {t64}, {tl}"));
            em.ins(format!("or.b64 %ck_key, {g}, {t64}"));
            if fast {
                em.ins("min.u32 %ck_u, %ck_ep, 8191");
                em.ins(format!("mul.wide.u32 {t64}, %ck_u, 2048"));
                em.ins(format!("or.b64 %ck_key, %ck_key, {t64}"));
            }
            em.ins(format!("ld.const.u32 %ck_t, [{TABLE}+8]"));
            em.ins("cvt.u64.u32 %ck_old, %ck_t");
            em.ins("shl.b64 %ck_old, %ck_old, 60");
            em.ins("or.b64 %ck_key, %ck_key, %ck_old");
            em.ins(format!("ld.const.u64 %ck_rec, [{TABLE}]"));
            em.ins("atom.global.min.u64 %ck_old, [%ck_rec], %ck_key");
            em.ins("setp.le.u64 %ck_p, %ck_old, %ck_key");
            em.ins("@%ck_p bra $CHKX");
            em.label("$CHKL");
            em.ins("atom.global.cas.b32 %ck_u, [%ck_rec+8], 0, 1");
            em.ins("setp.ne.u32 %ck_p, %ck_u, 0");
            em.ins("@%ck_p bra $CHKL");
            em.ins("ld.volatile.global.u64 %ck_old, [%ck_rec]");
            em.ins("setp.ne.u64 %ck_p, %ck_old, %ck_key");
            em.ins("@%ck_p bra $CHKU");
            em.ins("st.volatile.global.u32 [%ck_rec+12], %ck_site");
            em.ins("st.volatile.global.u32 [%ck_rec+16], %ck_kind");
            em.ins("st.volatile.global.u32 [%ck_rec+20], %ck_entry");
            em.ins("st.volatile.global.u64 [%ck_rec+24], %ck_val");
            em.ins("st.volatile.global.u64 [%ck_rec+32], %ck_len");
            em.ins(format!("st.volatile.global.u32 [%ck_rec+40], {a}"));
            em.ins(format!("st.volatile.global.u32 [%ck_rec+44], {b}"));
            em.ins(format!("st.volatile.global.u32 [%ck_rec+48], {c}"));
            for (k, d) in ["x", "y", "z"].iter().enumerate() {
                em.ins(format!("mov.u32 {a}, %tid.{d}"));
                em.ins(format!(
                    "st.volatile.global.u32 [%ck_rec+{}], {a}",
                    52 + 4 * k
                ));
            }
            em.ins("st.volatile.global.u32 [%ck_rec+64], %ck_t");
            em.ins("st.volatile.global.u32 [%ck_rec+68], %ck_extra");
            if em.copies() > 1 {
                em.ins("st.volatile.global.u32 [%ck_rec+72], %ck_copy");
            }
            em.label("$CHKU");
            em.ins("membar.gl");
            em.ins("atom.global.exch.b32 %ck_u, [%ck_rec+8], 0");
            em.label("$CHKX");
            if barriers && !fast {
                // A divergence already ended the group; any other fault leaves through the
                // protocol so that the rest of the group is not left waiting.
                em.ins(format!("setp.eq.u32 %ck_p, %ck_kind, {}", kind::DIVERGENCE));
                em.ins("@%ck_p exit");
                em.label("$CHKEXIT");
                em.divergence_protocol(&EXIT_SITE.to_string())?;
            }
            if barriers && fast {
                em.ins("exit");
                em.label("$CHKEXIT");
                em.divergence_protocol(&EXIT_SITE.to_string())?;
            }
            em.ins("exit");
            Ok(())
        })
    }
}

/// What the host knows of a launch, to word its fault as the cpu device does.
pub struct FaultContext<'a> {
    pub module: &'a oclc_ir::Module,
    /// The launched kernel (absent for a program loaded from PTX text).
    pub kernel: Option<&'a Function>,
    pub sites: &'a [CheckSite],
    pub plan: &'a crate::launch::Plan,
    /// (base, size) per table entry: the kernel's parameters, then the module's globals.
    pub entries: &'a [(u64, u64)],
}

impl FaultContext<'_> {
    fn param_object(&self, k: u32) -> (oclc_syntax::Symbol, AddrSpace, u64) {
        let size = self.entries.get(k as usize).map_or(0, |e| e.1);
        let p = self.kernel.and_then(|f| f.params.get(k as usize));
        let (name, space) = match p {
            Some(p) => match p.kind {
                ParamKind::Buffer(AddrSpace::Local) => {
                    (format!("argument `{}`", p.name), AddrSpace::Local)
                }
                ParamKind::Buffer(sp) => (format!("buffer `{}`", p.name), sp),
                _ => (format!("argument `{}`", p.name), AddrSpace::Global),
            },
            None => (format!("argument {k}"), AddrSpace::Global),
        };
        (oclc_syntax::Symbol::intern(&name), space, size)
    }

    /// Name, space and size of the object a fault is about.
    fn object(&self, o: &Object, entry: u32) -> (oclc_syntax::Symbol, AddrSpace, u64) {
        let global = |g: u32| match self.module.globals.get(g as usize) {
            Some(gv) => (
                oclc_syntax::Symbol::intern(&format!("variable `{}`", gv.name)),
                gv.space,
                gv.size,
            ),
            None => (
                oclc_syntax::Symbol::intern("a variable"),
                AddrSpace::Global,
                0,
            ),
        };
        match o {
            Object::Param(k) => self.param_object(*k),
            Object::Global(g) => global(*g),
            Object::Local(l) => match self.module.locals.get(*l as usize) {
                Some(lv) => (
                    oclc_syntax::Symbol::intern(&format!("variable `{}`", lv.name)),
                    AddrSpace::Local,
                    lv.size,
                ),
                None => (
                    oclc_syntax::Symbol::intern("a variable"),
                    AddrSpace::Local,
                    0,
                ),
            },
            Object::Private { name, size } => {
                (oclc_syntax::Symbol::intern(name), AddrSpace::Private, *size)
            }
            Object::Unknown => {
                let params = self.kernel.map_or(0, |f| f.params.len()) as u32;
                if entry < params {
                    self.param_object(entry)
                } else {
                    global(entry.saturating_sub(params))
                }
            }
        }
    }

    fn site_span(&self, s: u32) -> Option<Span> {
        self.sites.get(s as usize).map(|x| x.span)
    }
}

/// The fault in `rec` as the cpu device reports it: message, span and work-item ids.
pub fn runtime_error(rec: &Record, cx: &FaultContext) -> oclc_ir::fault::RuntimeError {
    use oclc_ir::fault::{CheckKind, Fault, RuntimeError, fault_message};
    let site = cx.sites.get(rec.site as usize);
    let what = site.map_or("access", |s| s.what);
    let (kind, message, span, note) = match rec.kind {
        kind::DIVERGENCE => {
            let lid = |t: [u32; 3]| format!("({}, {}, {})", t[0], t[1], t[2]);
            let (other, first) = (lid(rec.tid), lid([0, 0, 0]));
            let (a, b) = (rec.extra, rec.site);
            let (at, message) = match (a == EXIT_SITE, b == EXIT_SITE) {
                (false, true) => (
                    a,
                    format!(
                        "barrier divergence: work-item with local id {other} finished without reaching the barrier that work-item {first} waits at"
                    ),
                ),
                (true, false) => (
                    b,
                    format!(
                        "barrier divergence: work-item with local id {other} waits at a barrier that work-item {first} finished without reaching"
                    ),
                ),
                _ => (
                    b,
                    format!(
                        "barrier divergence: work-item with local id {other} reached a different barrier than work-item {first}"
                    ),
                ),
            };
            let note = (a != EXIT_SITE && b != EXIT_SITE)
                .then(|| cx.site_span(a))
                .flatten()
                .map(|s| (s, format!("work-item {first} waits at this barrier")));
            (
                CheckKind::BarrierDivergence,
                message,
                cx.site_span(at).unwrap_or(Span::DUMMY),
                note,
            )
        }
        k => {
            let object = site.map_or(Object::Unknown, |s| s.object.clone());
            let fault = match k {
                kind::NULL => Fault::Null,
                kind::OUT_OF_BOUNDS => {
                    let (name, space, size) = cx.object(&object, rec.entry);
                    Fault::OutOfBounds {
                        name,
                        space,
                        size,
                        offset: rec.value as i64,
                        len: rec.len,
                    }
                }
                kind::WRONG_SPACE => Fault::WrongSpace {
                    cast_to: site.map_or(AddrSpace::Generic, |s| s.space),
                    points_to: space_of_code(rec.extra),
                },
                kind::WRITE_CONSTANT => Fault::WriteConstant {
                    name: cx.object(&object, rec.entry).0,
                },
                _ if rec.extra == space_code(AddrSpace::Local) => Fault::Dangling {
                    space: AddrSpace::Local,
                },
                _ => Fault::Unmapped { addr: rec.value },
            };
            let (kind, message) = fault_message(&fault, what, &|_| None);
            (kind, message, site.map_or(Span::DUMMY, |s| s.span), None)
        }
    };
    let (group, local, global) = work_item(rec, cx.plan);
    RuntimeError {
        kind,
        message,
        span,
        global_id: global,
        local_id: local,
        group_id: group,
        note,
        ..RuntimeError::default()
    }
}

/// Group, local and global ids of the recorded work-item.
fn work_item(rec: &Record, plan: &crate::launch::Plan) -> ([u64; 3], [u64; 3], [u64; 3]) {
    let (first, coarsen) = plan
        .regions
        .get(rec.region as usize)
        .map_or(([0; 3], 1), |r| (r.first_group, r.coarsen.max(1)));
    let mut g = [0u64; 3];
    let mut l = [0u64; 3];
    let mut gl = [0u64; 3];
    for d in 0..3 {
        // A coarsened block runs `coarsen` consecutive work-groups in dimension 0.
        g[d] = match d {
            0 => first[d] as u64 + rec.ctaid[d] as u64 * coarsen as u64 + rec.copy as u64,
            _ => first[d] as u64 + rec.ctaid[d] as u64,
        };
        l[d] = rec.tid[d] as u64;
        gl[d] = plan.offset[d] + g[d] * plan.local[d] + l[d];
    }
    (g, l, gl)
}

//! Checking a run file against the kernel's signature, and preparing the launch: every argument
//! as bytes in parameter order, every expectation with its expected bytes.

use super::elem::ElemType;
use super::error::{JobErrors, Sink};
use super::job::{ArgKind, RunFile, Tolerance};
use super::node::Value;
use super::value::{ValueSpec, parse_lit, put};

/// A kernel's parameters, as the driver reads them from the checked program.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelSignature {
    pub name: String,
    pub params: Vec<ParamInfo>,
}

/// One kernel parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamInfo {
    /// Empty for an unnamed parameter (which a run file cannot give a value).
    pub name: String,
    /// The parameter's type as diagnostics spell it, e.g. `__global float *`.
    pub ty: String,
    pub kind: ParamKind,
}

/// The named address spaces a buffer parameter can point into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferSpace {
    Global,
    Constant,
}

/// What a pointer parameter points to.
#[derive(Debug, Clone, PartialEq)]
pub struct Pointee {
    /// The element type when it is one a run file can name; `None` for `void`, structs, etc.,
    /// which accept a buffer of any element type.
    pub elem: Option<ElemType>,
    /// `sizeof` the pointee (0 for `void`), for the device's use.
    pub size: usize,
}

/// How a parameter receives its value.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamKind {
    /// A `__global` or `__constant` pointer: takes `{ buffer = TYPE, len = N }`.
    Buffer {
        space: BufferSpace,
        pointee: Pointee,
    },
    /// A `__local` pointer: takes `{ local = TYPE, len = N }`.
    LocalPtr { pointee: Pointee },
    /// A scalar or vector passed by value: takes `{ value = V }`.
    Scalar { elem: ElemType },
    /// Anything else (a struct by value, ...): run files cannot supply it.
    Unsupported,
}

/// A launch ready for the device: arguments in parameter order, expectations in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Launch {
    pub args: Vec<LaunchArg>,
    pub expectations: Vec<PreparedExpectation>,
}

/// One argument's value.
#[derive(Debug, Clone, PartialEq)]
pub enum LaunchArg {
    /// A buffer of `len` elements of `elem` and its initial contents. The contents stay a
    /// spec (a file checked, a device file read) so the driver can write them straight into
    /// device memory: a buffer is never held twice.
    Buffer {
        name: String,
        space: BufferSpace,
        elem: ElemType,
        len: usize,
        init: ValueSpec,
    },
    /// A `__local` allocation of `bytes` bytes.
    Local { name: String, bytes: usize },
    /// A scalar or vector, as its bytes (3-vectors padded to 4 components).
    Scalar {
        name: String,
        elem: ElemType,
        bytes: Vec<u8>,
    },
}

impl LaunchArg {
    pub fn name(&self) -> &str {
        match self {
            LaunchArg::Buffer { name, .. }
            | LaunchArg::Local { name, .. }
            | LaunchArg::Scalar { name, .. } => name,
        }
    }

    /// Bytes of a buffer (0 for the other kinds).
    pub fn buffer_bytes(&self) -> usize {
        match self {
            LaunchArg::Buffer { elem, len, .. } => elem.size() * len,
            _ => 0,
        }
    }
}

/// An expectation, checked against its file or device contents when prepared; the expected
/// bytes are generated piece by piece while comparing ([`PreparedExpectation::check_with`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedExpectation {
    pub name: String,
    /// Position of the buffer in [`Launch::args`].
    pub param_index: usize,
    pub elem: ElemType,
    pub len: usize,
    pub want: ValueSpec,
    pub tolerance: Tolerance,
}

const BUFFER_FORM: &str = "{ buffer = TYPE, len = N }";
const LOCAL_FORM: &str = "{ local = TYPE, len = N }";
const VALUE_FORM: &str = "{ value = V }";

impl RunFile {
    /// Checks the arguments against `sig` (every parameter has one of the right kind and type,
    /// and there are no others) and materializes buffers, scalars and expected contents. Every
    /// problem is reported.
    pub fn prepare(&self, sig: &KernelSignature) -> Result<Launch, JobErrors> {
        let mut sink = Sink::new(&self.path, &self.text);
        let mut args = Vec::with_capacity(sig.params.len());
        for (i, p) in sig.params.iter().enumerate() {
            if p.name.is_empty() {
                sink.error_at(
                    self.args_at,
                    "args",
                    format!("parameter {} of kernel '{}' ({}) has no name, so a run file cannot give it a value", i + 1, sig.name, p.ty),
                );
                continue;
            }
            let Some(arg) = self.arg(&p.name) else {
                sink.error_at(
                    self.args_at,
                    &format!("args.{}", p.name),
                    format!(
                        "missing: kernel '{}' has parameter '{}' of type '{}'",
                        sig.name, p.name, p.ty
                    ),
                );
                continue;
            };
            let field = format!("args.{}", p.name);
            let wrong = |takes: &str, given: &str| {
                format!(
                    "parameter '{}' is '{}', which takes {takes}, not {given}",
                    p.name, p.ty
                )
            };
            let given = match arg.kind {
                ArgKind::Buffer { .. } => "a buffer",
                ArgKind::Local { .. } => "a local allocation",
                ArgKind::Value(_) => "a value",
            };
            match (&p.kind, &arg.kind) {
                (ParamKind::Buffer { space, pointee }, ArgKind::Buffer { elem, len, init }) => {
                    if !agrees(pointee, *elem) {
                        sink.error_at(
                            arg.at,
                            &format!("{field}.buffer"),
                            format!(
                                "parameter '{}' is '{}', but the buffer holds {elem}",
                                p.name, p.ty
                            ),
                        );
                        continue;
                    }
                    match init.resolve(*elem, *len) {
                        Ok(init) => args.push(LaunchArg::Buffer {
                            name: p.name.clone(),
                            space: *space,
                            elem: *elem,
                            len: *len,
                            init,
                        }),
                        Err(m) => {
                            sink.error_at(arg.at, &spec_field(&format!("{field}.init"), init), m)
                        }
                    }
                }
                (ParamKind::LocalPtr { pointee }, ArgKind::Local { elem, len }) => {
                    if !agrees(pointee, *elem) {
                        sink.error_at(
                            arg.at,
                            &format!("{field}.local"),
                            format!(
                                "parameter '{}' is '{}', but the allocation holds {elem}",
                                p.name, p.ty
                            ),
                        );
                        continue;
                    }
                    // `len` was checked to keep the allocation within MAX_BUFFER_BYTES.
                    args.push(LaunchArg::Local {
                        name: p.name.clone(),
                        bytes: elem.size().saturating_mul(*len),
                    });
                }
                (ParamKind::Scalar { elem }, ArgKind::Value(v)) => {
                    let vfield = format!("{field}.value");
                    let n = elem.comps();
                    let comps: Vec<_> = match &v.node.value {
                        Value::Array(items) if n > 1 && items.len() == n => items.iter().collect(),
                        Value::Array(items) if n > 1 => {
                            sink.error(&v.node.span, &vfield, format!("parameter '{}' is {elem}: expected a list of {n} numbers, got {}", p.name, items.len()));
                            continue;
                        }
                        _ if n > 1 => {
                            sink.error(&v.node.span, &vfield, format!("parameter '{}' is {elem}: expected a list of {n} numbers, got {}", p.name, v.node.value.kind()));
                            continue;
                        }
                        Value::Array(_) => {
                            sink.error(
                                &v.node.span,
                                &vfield,
                                format!(
                                    "parameter '{}' is {elem}: expected a number, got an array",
                                    p.name
                                ),
                            );
                            continue;
                        }
                        _ => vec![&v.node],
                    };
                    let mut bytes = Vec::with_capacity(elem.size());
                    let mut ok = true;
                    for (c, node) in comps.iter().enumerate() {
                        let cfield = if n > 1 {
                            format!("{vfield}[{c}]")
                        } else {
                            vfield.clone()
                        };
                        match parse_lit(&mut sink, node, &cfield, elem.scalar) {
                            Some(lit) => put(elem.scalar, lit, &mut bytes),
                            None => ok = false,
                        }
                    }
                    bytes.resize(elem.size(), 0);
                    if ok {
                        args.push(LaunchArg::Scalar {
                            name: p.name.clone(),
                            elem: *elem,
                            bytes,
                        });
                    }
                }
                (ParamKind::Buffer { .. }, _) => {
                    sink.error_at(arg.at, &field, wrong(BUFFER_FORM, given))
                }
                (ParamKind::LocalPtr { .. }, _) => {
                    sink.error_at(arg.at, &field, wrong(LOCAL_FORM, given))
                }
                (ParamKind::Scalar { .. }, _) => {
                    sink.error_at(arg.at, &field, wrong(VALUE_FORM, given))
                }
                (ParamKind::Unsupported, _) => sink.error_at(
                    arg.at,
                    &field,
                    format!(
                        "parameter '{}' has type '{}', which run files cannot supply",
                        p.name, p.ty
                    ),
                ),
            }
        }
        let names: Vec<&str> = sig
            .params
            .iter()
            .map(|p| p.name.as_str())
            .filter(|n| !n.is_empty())
            .collect();
        for arg in &self.args {
            if !names.contains(&arg.name.as_str()) {
                let list = if names.is_empty() {
                    "it has no parameters".to_owned()
                } else {
                    format!("its parameters: {}", names.join(", "))
                };
                sink.error_at(
                    arg.at,
                    &format!("args.{}", arg.name),
                    format!(
                        "kernel '{}' has no parameter named '{}' ({list})",
                        sig.name, arg.name
                    ),
                );
            }
        }
        let mut expectations = Vec::new();
        for e in &self.expect {
            let Some(param_index) = sig.params.iter().position(|p| p.name == e.name) else {
                continue;
            };
            let Some(ArgKind::Buffer { elem, len, .. }) = self.arg(&e.name).map(|a| &a.kind) else {
                continue;
            };
            match e.equals.resolve(*elem, *len) {
                Ok(want) => expectations.push(PreparedExpectation {
                    name: e.name.clone(),
                    param_index,
                    elem: *elem,
                    len: *len,
                    want,
                    tolerance: e.tolerance,
                }),
                Err(m) => sink.error_at(
                    e.at,
                    &spec_field(&format!("expect.{}.equals", e.name), &e.equals),
                    m,
                ),
            }
        }
        if sink.errors.is_empty() {
            Ok(Launch { args, expectations })
        } else {
            let mut errors = sink.errors;
            errors.sort_by_key(|e| e.at.map(|a| (a.line, a.col)));
            Err(JobErrors(errors))
        }
    }
}

/// A pointee a run file can name must match the element type exactly; others (`void`,
/// structs) take any.
fn agrees(pointee: &Pointee, elem: ElemType) -> bool {
    pointee.elem.is_none_or(|p| p == elem)
}

fn spec_field(field: &str, spec: &ValueSpec) -> String {
    match spec {
        ValueSpec::File { .. } => format!("{field}.file"),
        _ => field.to_owned(),
    }
}

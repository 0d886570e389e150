//! The run file itself: `RunFile::parse` reads the TOML, checks every field that can be checked
//! without the kernel, and keeps positions for the checks that need it.

use super::elem::ElemType;
use super::error::{JobErrors, LineCol, RunFileError, Sink};
use super::node::{Key, Node, Value};
use super::value::{ValueSpec, parse_spec};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Largest buffer a run file may ask for, in bytes (1 GiB).
pub const MAX_BUFFER_BYTES: usize = 1 << 30;

/// Largest run file, in bytes (64 MiB; large buffers come from files or generated specs).
pub const MAX_RUN_FILE_BYTES: u64 = 64 << 20;

/// Most work-items in a work-group on both devices (the cpu device's
/// CL_DEVICE_MAX_WORK_GROUP_SIZE, and CUDA's block limit).
const MAX_WORK_GROUP_SIZE: u64 = oclc_cpu::MAX_WORK_GROUP_SIZE;

/// `a x b x c`, as ND-range errors show sizes.
fn dims_text(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" x ")
}

/// The program a run file builds.
#[derive(Debug, Clone, PartialEq)]
pub enum ProgramSource {
    /// `source = "x.cl"`: `path` is resolved against the run file's directory; `written` is the
    /// name as the run file gives it.
    File { path: PathBuf, written: String },
    /// `code = """..."""`.
    Inline(String),
}

/// A parsed, field-checked run file.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFile {
    /// The run file's path, as given (error messages name it).
    pub path: PathBuf,
    pub program: ProgramSource,
    /// Build options, as for `oclc check` (empty when absent).
    pub options: String,
    pub kernel: String,
    /// 1 to 3 dimensions, each at least 1.
    pub global: Vec<u64>,
    /// Same dimensions as `global`, each at least 1.
    pub local: Option<Vec<u64>>,
    /// Same dimensions as `global`.
    pub offset: Option<Vec<u64>>,
    /// In file order.
    pub args: Vec<ArgSpec>,
    /// In file order; each names a buffer argument.
    pub expect: Vec<Expectation>,
    /// Position of `kernel`, for errors found later.
    pub(crate) kernel_at: Option<LineCol>,
    /// Position of the `args` key, for missing-argument errors.
    pub(crate) args_at: Option<LineCol>,
    /// The run file's text, for positions of errors found later.
    pub(crate) text: String,
}

/// One `[args]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgSpec {
    pub name: String,
    pub kind: ArgKind,
    pub(crate) at: Option<LineCol>,
}

/// What an argument provides.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgKind {
    /// `{ buffer = TYPE, len = N, init = SPEC }`.
    Buffer {
        elem: ElemType,
        len: usize,
        init: ValueSpec,
    },
    /// `{ local = TYPE, len = N }`: a `__local` pointer parameter's allocation.
    Local { elem: ElemType, len: usize },
    /// `{ value = V }`: a scalar (a number) or vector (a list); checked against the parameter's
    /// type by [`super::signature`].
    Value(ScalarValue),
}

/// A scalar argument's value as written; its type comes from the kernel signature.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalarValue {
    pub(crate) node: Node,
}

/// Tolerance of a floating-point comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Tolerance {
    /// Exact: equal values (-0 equals +0, NaN equals NaN).
    Exact,
    /// `tol = X`: |got - want| <= X.
    Abs(f64),
    /// `ulp = N`: at most N representable values of the element type apart.
    Ulp(u64),
}

/// One `[expect]` entry: a buffer argument's contents after the launch.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    pub name: String,
    pub equals: ValueSpec,
    pub tolerance: Tolerance,
    pub(crate) at: Option<LineCol>,
}

const TOP_KEYS: &str = "source, code, options, kernel, global, local, offset, args, expect";

impl RunFile {
    /// Reads and parses the run file at `path` (at most [`MAX_RUN_FILE_BYTES`]: a device such
    /// as `/dev/zero` is an error, not an endless read).
    pub fn load(path: &Path) -> Result<RunFile, JobErrors> {
        use oclc_syntax::source::{ReadSourceError, format_size, read_source};
        let error = |msg: String| RunFileError::new(path, None, "", msg);
        let bytes = read_source(path, MAX_RUN_FILE_BYTES).map_err(|e| match e {
            ReadSourceError::Io(e) => error(format!("cannot read the run file: {e}")),
            ReadSourceError::TooLarge { limit } => error(format!(
                "the run file is larger than the {} limit on run files",
                format_size(limit)
            )),
        })?;
        let text = String::from_utf8(bytes).map_err(|_| {
            error("cannot read the run file: stream did not contain valid UTF-8".to_string())
        })?;
        RunFile::parse(&text, path)
    }

    /// Parses run-file text; `path` names the file in errors and anchors relative file names.
    /// Every problem is reported, in file order.
    pub fn parse(text: &str, path: &Path) -> Result<RunFile, JobErrors> {
        let mut sink = Sink::new(path, text);
        let doc = match Node::parse_document(text) {
            Ok(doc) => doc,
            Err(e) => {
                let at = e.span().map(|r| LineCol::of(text, r.start));
                let message = e
                    .message()
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join("; ");
                return Err(RunFileError::new(path, at, "", message).into());
            }
        };
        let base = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let job = Parser {
            sink: &mut sink,
            base: &base,
        }
        .job(&doc);
        match job {
            Some(mut job) if sink.errors.is_empty() => {
                job.path = path.to_path_buf();
                job.text = text.to_owned();
                Ok(job)
            }
            _ => {
                let mut errors = sink.errors;
                errors.sort_by_key(|e| e.at.map(|a| (a.line, a.col)));
                Err(JobErrors(errors))
            }
        }
    }

    /// The program's bytes: the inline code, or the source file read from disk (at most the
    /// source limit, `OCLC_MAX_SOURCE_BYTES`; its bytes need not be UTF-8, as for clang).
    pub fn source_bytes(&self) -> Result<Vec<u8>, RunFileError> {
        match &self.program {
            ProgramSource::Inline(code) => Ok(code.clone().into_bytes()),
            ProgramSource::File { path, written } => {
                let error = |msg: String| RunFileError::new(&self.path, None, "source", msg);
                let limit = oclc_syntax::source::max_source_bytes_from_env().map_err(error)?;
                oclc_syntax::source::read_source(path, limit)
                    .map_err(|e| error(e.message(&format!("'{written}'"))))
            }
        }
    }

    /// [`RunFile::source_bytes`] as text (an error when they are not UTF-8).
    pub fn source_text(&self) -> Result<String, RunFileError> {
        String::from_utf8(self.source_bytes()?).map_err(|_| {
            let written = match &self.program {
                ProgramSource::File { written, .. } => written.as_str(),
                ProgramSource::Inline(_) => "code",
            };
            RunFileError::new(
                &self.path,
                None,
                "source",
                format!("cannot read '{written}': stream did not contain valid UTF-8"),
            )
        })
    }

    /// The error for a program that has no kernel named `self.kernel`; `available` lists the
    /// kernels it has.
    pub fn kernel_not_found(&self, available: &[&str]) -> RunFileError {
        let list = if available.is_empty() {
            "the program defines no kernels".to_owned()
        } else {
            format!("kernels: {}", available.join(", "))
        };
        RunFileError::new(
            &self.path,
            self.kernel_at,
            "kernel",
            format!("no kernel named '{}' in the program ({list})", self.kernel),
        )
    }

    /// The `[args]` entry named `name`.
    pub fn arg(&self, name: &str) -> Option<&ArgSpec> {
        self.args.iter().find(|a| a.name == name)
    }
}

struct Parser<'s, 'a> {
    sink: &'s mut Sink<'a>,
    base: &'s Path,
}

fn entries(node: &Node) -> Option<&[(Key, Node)]> {
    match &node.value {
        Value::Table(t) => Some(t),
        _ => None,
    }
}

fn first_span<'n>(node: &'n Node, key: &'n Key) -> &'n Option<Range<usize>> {
    if node.span.is_some() {
        &node.span
    } else {
        &key.span
    }
}

impl Parser<'_, '_> {
    fn job(&mut self, doc: &Node) -> Option<RunFile> {
        let top = entries(doc).unwrap_or_default();
        let mut source = None;
        let mut code = None;
        let mut options = String::new();
        let mut kernel = None;
        let mut global: Option<(Vec<u64>, &Key)> = None;
        let mut global_node = None;
        let mut local_node = None;
        let mut local = None;
        let mut offset = None;
        let mut args = Vec::new();
        let mut args_at = None;
        let mut args_node = None;
        let mut expect_node = None;
        for (key, value) in top {
            let k = key.name.as_str();
            match k {
                "source" => source = self.string(value, k).map(|s| (s, key)),
                "code" => code = self.string(value, k).map(|s| (s, key)),
                "options" => options = self.string(value, k).unwrap_or_default(),
                "kernel" => {
                    kernel = self.string(value, k).map(|s| (s, key));
                    if let Some((name, _)) = &kernel
                        && name.is_empty()
                    {
                        self.sink.error(&value.span, k, "expected a kernel name");
                    }
                }
                "global" => {
                    global = self.dims(value, k, 1).map(|d| (d, key));
                    global_node = Some(value);
                }
                "local" => {
                    local = self.dims(value, k, 1).map(|d| (d, key));
                    local_node = Some(value);
                }
                "offset" => offset = self.dims(value, k, 0).map(|d| (d, key)),
                "args" => {
                    args_at = self.sink.at(&key.span);
                    args_node = Some(value);
                }
                "expect" => expect_node = Some(value),
                _ => self.sink.error(
                    &key.span,
                    k,
                    format!("unknown key (a run file has {TOP_KEYS})"),
                ),
            }
        }
        let program = match (source, code) {
            (Some((s, _)), None) => Some(ProgramSource::File {
                path: self.base.join(&s),
                written: s,
            }),
            (None, Some((c, _))) => Some(ProgramSource::Inline(c)),
            (Some(_), Some((_, key))) => {
                self.sink
                    .error(&key.span, "code", "give either source or code, not both");
                None
            }
            (None, None) => {
                self.sink.error(
                    &None,
                    "source",
                    "missing: give source = \"FILE.cl\" or code = \"\"\"...\"\"\"",
                );
                None
            }
        };
        if kernel.is_none() && !top.iter().any(|(k, _)| k.name == "kernel") {
            self.sink
                .error(&None, "kernel", "missing: give kernel = \"NAME\"");
        }
        if global.is_none() && !top.iter().any(|(k, _)| k.name == "global") {
            self.sink.error(
                &None,
                "global",
                "missing: give global = [X] (1 to 3 dimensions)",
            );
        }
        if let Some((g, _)) = &global {
            for (name, dims) in [("local", &local), ("offset", &offset)] {
                if let Some((d, key)) = dims
                    && d.len() != g.len()
                {
                    self.sink.error(
                        &key.span,
                        name,
                        format!("has {} dimensions, but global has {}", d.len(), g.len()),
                    );
                }
            }
        }
        if let (Some((g, _)), Some(node)) = (&global, global_node)
            && g.iter().try_fold(1u64, |a, &x| a.checked_mul(x)).is_none()
        {
            self.sink.error(
                &node.span,
                "global",
                format!(
                    "invalid ND-range: {} work-items are more than size_t counts (2^64 - 1)",
                    dims_text(g)
                ),
            );
        }
        if let (Some((l, _)), Some(node)) = (&local, local_node)
            && l.iter()
                .try_fold(1u64, |a, &x| a.checked_mul(x))
                .is_none_or(|n| n > MAX_WORK_GROUP_SIZE)
        {
            self.sink.error(
                &node.span,
                "local",
                format!(
                    "invalid ND-range: {} work-items per work-group, more than the devices \
                     allow ({MAX_WORK_GROUP_SIZE}, CL_DEVICE_MAX_WORK_GROUP_SIZE)",
                    dims_text(l)
                ),
            );
        }
        match args_node {
            Some(node) => args = self.args(node),
            None => self.sink.error(
                &None,
                "args",
                "missing: give an [args] table with every kernel parameter",
            ),
        }
        let arg_names: Vec<&str> = args_node
            .and_then(entries)
            .unwrap_or_default()
            .iter()
            .map(|(k, _)| k.name.as_str())
            .collect();
        let expect = expect_node
            .map(|n| self.expect(n, &args, &arg_names))
            .unwrap_or_default();
        let (kernel, kernel_key) = kernel?;
        Some(RunFile {
            path: PathBuf::new(),
            program: program?,
            options,
            kernel,
            global: global?.0,
            local: local.map(|l| l.0),
            offset: offset.map(|o| o.0),
            args,
            expect,
            kernel_at: self.sink.at(&kernel_key.span),
            args_at,
            text: String::new(),
        })
    }

    fn string(&mut self, node: &Node, field: &str) -> Option<String> {
        match &node.value {
            Value::Str(s) => Some(s.clone()),
            v => {
                self.sink.error(
                    &node.span,
                    field,
                    format!("expected a string, got {}", v.kind()),
                );
                None
            }
        }
    }

    /// A list of 1 to 3 integers, each at least `min`.
    fn dims(&mut self, node: &Node, field: &str, min: i64) -> Option<Vec<u64>> {
        let what = if min > 0 { "positive" } else { "non-negative" };
        let Value::Array(items) = &node.value else {
            self.sink.error(
                &node.span,
                field,
                format!(
                    "expected a list of 1 to 3 {what} integers, got {}",
                    node.value.kind()
                ),
            );
            return None;
        };
        if items.is_empty() || items.len() > 3 {
            self.sink.error(
                &node.span,
                field,
                format!("expected 1 to 3 dimensions, got {}", items.len()),
            );
            return None;
        }
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item.value {
                Value::Int(v) if v >= min => out.push(v as u64),
                _ => self.sink.error(
                    &item.span,
                    &format!("{field}[{i}]"),
                    format!("expected a {what} integer"),
                ),
            }
        }
        (out.len() == items.len()).then_some(out)
    }

    fn args(&mut self, node: &Node) -> Vec<ArgSpec> {
        let Some(list) = entries(node) else {
            self.sink.error(
                &node.span,
                "args",
                format!("expected a table, got {}", node.value.kind()),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (key, value) in list {
            let field = format!("args.{}", key.name);
            if let Some(kind) = self.arg(value, key, &field) {
                out.push(ArgSpec {
                    name: key.name.clone(),
                    kind,
                    at: self.sink.at(&key.span),
                });
            }
        }
        out
    }

    fn arg(&mut self, node: &Node, key: &Key, field: &str) -> Option<ArgKind> {
        const FORMS: &str =
            "expected { buffer = TYPE, len = N }, { local = TYPE, len = N } or { value = V }";
        let Some(items) = entries(node) else {
            self.sink.error(
                &node.span,
                field,
                format!("{FORMS}, got {}", node.value.kind()),
            );
            return None;
        };
        let get = |name: &str| items.iter().find(|(k, _)| k.name == name);
        let kinds: Vec<&str> = ["buffer", "local", "value"]
            .into_iter()
            .filter(|k| get(k).is_some())
            .collect();
        let kind = match kinds.as_slice() {
            [one] => *one,
            [] => {
                self.sink.error(first_span(node, key), field, FORMS);
                return None;
            }
            _ => {
                self.sink.error(
                    first_span(node, key),
                    field,
                    format!("give only one of {}", kinds.join(", ")),
                );
                return None;
            }
        };
        let allowed: &[&str] = match kind {
            "buffer" => &["buffer", "len", "init"],
            "local" => &["local", "len"],
            _ => &["value"],
        };
        let mut ok = true;
        for (k, _) in items {
            if !allowed.contains(&k.name.as_str()) {
                self.sink.error(
                    &k.span,
                    &format!("{field}.{}", k.name),
                    format!(
                        "unknown key (a {kind} argument takes {})",
                        allowed.join(", ")
                    ),
                );
                ok = false;
            }
        }
        if kind == "value" {
            let (_, v) = get("value")?;
            return ok.then(|| ArgKind::Value(ScalarValue { node: v.clone() }));
        }
        let (_, tnode) = get(kind)?;
        let elem = self.elem_type(tnode, &format!("{field}.{kind}"));
        let len = match get("len") {
            Some((_, n)) => self.len(n, &format!("{field}.len"), elem),
            None => {
                self.sink.error(
                    first_span(node, key),
                    &format!("{field}.len"),
                    "missing: give the number of elements",
                );
                None
            }
        };
        if kind == "local" {
            return Some(ArgKind::Local {
                elem: elem?,
                len: len?,
            });
        }
        let elem = elem?;
        let init = match get("init") {
            Some((_, spec)) => parse_spec(
                self.sink,
                spec,
                &format!("{field}.init"),
                elem,
                len,
                self.base,
            ),
            None => Some(ValueSpec::Zero),
        };
        let (len, init) = (len?, init?);
        ok.then_some(ArgKind::Buffer { elem, len, init })
    }

    fn elem_type(&mut self, node: &Node, field: &str) -> Option<ElemType> {
        let name = self.string(node, field)?;
        let elem = ElemType::parse(&name);
        if elem.is_none() {
            self.sink.error(
                &node.span,
                field,
                format!("unknown element type '{name}' (expected char, uchar, short, ushort, int, uint, long, ulong, half, float or double, optionally with a vector width 2, 3, 4, 8 or 16, as in float4)"),
            );
        }
        elem
    }

    fn len(&mut self, node: &Node, field: &str, elem: Option<ElemType>) -> Option<usize> {
        let Value::Int(n) = node.value else {
            self.sink
                .error(&node.span, field, "expected a positive integer");
            return None;
        };
        if n < 1 {
            self.sink
                .error(&node.span, field, "expected a positive integer");
            return None;
        }
        let size = elem.map_or(1, ElemType::size);
        match usize::try_from(n).ok().and_then(|n| n.checked_mul(size)) {
            Some(bytes) if bytes <= MAX_BUFFER_BYTES => Some(n as usize),
            _ => {
                self.sink.error(
                    &node.span,
                    field,
                    format!("{n} elements exceed the largest buffer ({MAX_BUFFER_BYTES} bytes)"),
                );
                None
            }
        }
    }

    fn expect(&mut self, node: &Node, args: &[ArgSpec], arg_names: &[&str]) -> Vec<Expectation> {
        let Some(list) = entries(node) else {
            self.sink.error(
                &node.span,
                "expect",
                format!("expected a table, got {}", node.value.kind()),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (key, value) in list {
            let field = format!("expect.{}", key.name);
            let Some(arg) = args.iter().find(|a| a.name == key.name) else {
                // An argument rejected above has its own error; name only unknown ones.
                if !arg_names.contains(&key.name.as_str()) {
                    self.sink.error(
                        &key.span,
                        &field,
                        format!("no argument named '{}' in [args]", key.name),
                    );
                }
                continue;
            };
            let ArgKind::Buffer { elem, len, .. } = arg.kind else {
                self.sink.error(
                    &key.span,
                    &field,
                    format!(
                        "'{}' is not a buffer argument; only buffers have expectations",
                        key.name
                    ),
                );
                continue;
            };
            if let Some(e) = self.expectation(value, key, &field, elem, len) {
                out.push(e);
            }
        }
        out
    }

    fn expectation(
        &mut self,
        node: &Node,
        key: &Key,
        field: &str,
        elem: ElemType,
        len: usize,
    ) -> Option<Expectation> {
        let Some(items) = entries(node) else {
            self.sink.error(
                &node.span,
                field,
                format!("expected {{ equals = SPEC }}, got {}", node.value.kind()),
            );
            return None;
        };
        let mut equals = None;
        let mut tolerance = Tolerance::Exact;
        let mut seen_tol: Option<&str> = None;
        let mut ok = true;
        for (k, v) in items {
            let sub = format!("{field}.{}", k.name);
            match k.name.as_str() {
                "equals" => {
                    equals = parse_spec(self.sink, v, &sub, elem, Some(len), self.base);
                    ok &= equals.is_some();
                }
                "tol" | "ulp" => {
                    if !elem.scalar.is_float() {
                        self.sink.error(&k.span, &sub, format!("tolerances apply to floating-point buffers only, and this one is {elem}"));
                        ok = false;
                        continue;
                    }
                    if let Some(prev) = seen_tol {
                        self.sink.error(
                            &k.span,
                            &sub,
                            format!("give tol or ulp, not both ({prev} is given)"),
                        );
                        ok = false;
                        continue;
                    }
                    seen_tol = Some(if k.name == "tol" { "tol" } else { "ulp" });
                    match (k.name.as_str(), &v.value) {
                        ("tol", Value::Float(t)) if *t >= 0.0 => tolerance = Tolerance::Abs(*t),
                        ("tol", Value::Int(t)) if *t >= 0 => tolerance = Tolerance::Abs(*t as f64),
                        ("ulp", Value::Int(u)) if *u >= 0 => tolerance = Tolerance::Ulp(*u as u64),
                        ("tol", _) => {
                            self.sink
                                .error(&v.span, &sub, "expected a non-negative number");
                            ok = false;
                        }
                        _ => {
                            self.sink
                                .error(&v.span, &sub, "expected a non-negative integer");
                            ok = false;
                        }
                    }
                }
                _ => {
                    self.sink.error(
                        &k.span,
                        &sub,
                        "unknown key (an expectation takes equals, tol, ulp)",
                    );
                    ok = false;
                }
            }
        }
        if equals.is_none() && !items.iter().any(|(k, _)| k.name == "equals") {
            self.sink.error(
                first_span(node, key),
                &format!("{field}.equals"),
                "missing: give equals = SPEC",
            );
        }
        let equals = equals?;
        ok.then(|| Expectation {
            name: key.name.clone(),
            equals,
            tolerance,
            at: self.sink.at(&key.span),
        })
    }
}

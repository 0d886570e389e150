//! Source files, byte spans and macro-expansion records.
//!
//! A [`Span`] is a byte range in one file plus the macro expansion it came from (if any), so a
//! diagnostic can point at the macro's use site and add clang's "expanded from macro" note.

/// Index of a file in the [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// Index of a macro expansion in the [`SourceMap`]; `ExpnId::NONE` means written directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ExpnId(pub u32);

impl ExpnId {
    /// Not produced by a macro expansion.
    pub const NONE: ExpnId = ExpnId(0);
}

/// A byte range `lo..hi` in `file`, produced (if `expn` is not NONE) by a macro expansion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
    pub expn: ExpnId,
}

impl Span {
    pub const DUMMY: Span = Span {
        file: FileId(u32::MAX),
        lo: 0,
        hi: 0,
        expn: ExpnId::NONE,
    };

    pub fn new(file: FileId, lo: u32, hi: u32) -> Span {
        Span {
            file,
            lo,
            hi,
            expn: ExpnId::NONE,
        }
    }

    /// True for spans that point at no source text.
    pub fn is_dummy(&self) -> bool {
        self.file.0 == u32::MAX
    }

    /// The span from the start of `self` to the end of `other` when both are in the same file
    /// and expansion; otherwise `self`.
    pub fn to(self, other: Span) -> Span {
        if self.file == other.file && self.expn == other.expn && other.hi >= self.lo {
            Span {
                hi: other.hi,
                ..self
            }
        } else {
            self
        }
    }

    /// The empty span at the start of `self`.
    pub fn start(self) -> Span {
        Span {
            hi: self.lo,
            ..self
        }
    }
}

/// One loaded file: its name as given, its bytes as read (as clang, which keeps a source's
/// bytes: they need not be UTF-8; string literals keep invalid ones, columns count bytes) but
/// for a lone carriage return, read as the line feed it means (see [`lone_cr_as_lf`]), and
/// line starts.
#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    /// Shared with the lexers that read it.
    pub text: std::sync::Arc<[u8]>,
    /// Computed when first asked for: most files (the predefined macros' text, a clean
    /// input) never need a line number.
    line_starts: std::sync::OnceLock<Vec<u32>>,
}

impl SourceFile {
    pub fn new(name: String, text: impl Into<std::sync::Arc<[u8]>>) -> SourceFile {
        SourceFile {
            name,
            text: lone_cr_as_lf(text.into()),
            line_starts: std::sync::OnceLock::new(),
        }
    }

    /// Byte offsets at which lines start (the first is 0).
    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = Vec::with_capacity(self.text.len() / 32 + 1);
            starts.push(0u32);
            starts.extend(
                self.text
                    .iter()
                    .enumerate()
                    .filter(|&(_, &b)| b == b'\n')
                    .map(|(i, _)| i as u32 + 1),
            );
            starts
        })
    }

    /// 1-based line and 1-based byte column of `offset`.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let starts = self.line_starts();
        let line = match starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line as u32 + 1, offset - starts[line] + 1)
    }

    /// The bytes of 1-based `line`, without its line terminator.
    pub fn line_bytes(&self, line: u32) -> &[u8] {
        let starts = self.line_starts();
        let i = (line.max(1) - 1) as usize;
        let Some(&start) = starts.get(i) else {
            return b"";
        };
        let end = starts.get(i + 1).map_or(self.text.len(), |&e| e as usize);
        let mut l = self.text.get(start as usize..end).unwrap_or(b"");
        while let Some((b'\n' | b'\r', rest)) = l.split_last() {
            l = rest;
        }
        l
    }

    /// The text of 1-based `line` up to its first byte that is not UTF-8 (all of it, in
    /// almost every file; [`SourceFile::line_bytes`] has every byte).
    pub fn line_text(&self, line: u32) -> &str {
        let b = self.line_bytes(line);
        match std::str::from_utf8(b) {
            Ok(t) => t,
            Err(e) => std::str::from_utf8(&b[..e.valid_up_to()]).unwrap_or(""),
        }
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts().len() as u32
    }
}

/// `text` with each carriage return that no line feed follows turned into a line feed (the
/// same length, so offsets and columns stay). clang ends a line at a lone `\r` as at `\n` or
/// `\r\n` (old Mac sources: its lexer ends a `//` comment or a directive there, its line table
/// counts a line); oclc reads it as `\n` to do the same.
pub fn lone_cr_as_lf(text: std::sync::Arc<[u8]>) -> std::sync::Arc<[u8]> {
    let lone = |t: &[u8]| {
        t.iter()
            .enumerate()
            .any(|(i, &b)| b == b'\r' && t.get(i + 1) != Some(&b'\n'))
    };
    if !text.contains(&b'\r') || !lone(&text) {
        return text;
    }
    let mut v = text.to_vec();
    for i in 0..v.len() {
        if v[i] == b'\r' && v.get(i + 1) != Some(&b'\n') {
            v[i] = b'\n';
        }
    }
    v.into()
}

/// Largest source file (or standard input) read when nothing else is asked for: 256 MiB.
pub const DEFAULT_MAX_SOURCE_BYTES: u64 = 256 << 20;

/// The environment variable that sets the source size limit (bytes, or with a `K`, `M` or
/// `G` suffix: powers of 1024).
pub const MAX_SOURCE_BYTES_VAR: &str = "OCLC_MAX_SOURCE_BYTES";

/// Highest source size limit: spans are 32-bit byte offsets, so no file may be longer.
pub const MAX_SOURCE_BYTES_CEILING: u64 = u32::MAX as u64;

/// Why a source could not be read.
#[derive(Debug)]
pub enum ReadSourceError {
    Io(std::io::Error),
    /// The source has more than `limit` bytes (only `limit + 1` of them were read).
    TooLarge {
        limit: u64,
    },
}

impl ReadSourceError {
    /// The message for the source `what` (a quoted file name, or "standard input").
    pub fn message(&self, what: &str) -> String {
        match self {
            ReadSourceError::Io(e) => format!("cannot read {what}: {e}"),
            ReadSourceError::TooLarge { limit } => format!(
                "{what} is larger than the {} source limit ({MAX_SOURCE_BYTES_VAR})",
                format_size(*limit)
            ),
        }
    }
}

impl From<std::io::Error> for ReadSourceError {
    fn from(e: std::io::Error) -> Self {
        ReadSourceError::Io(e)
    }
}

/// Reads the file at `path`, at most `limit` bytes of it: a longer file (or a device such as
/// `/dev/zero`) is an error after `limit + 1` bytes, never a read without end.
pub fn read_source(path: &std::path::Path, limit: u64) -> Result<Vec<u8>, ReadSourceError> {
    let mut f = std::fs::File::open(path)?;
    // A regular file's size is a good first reservation; devices and pipes say 0.
    let size = f.metadata().map_or(0, |m| m.len());
    read_source_from(&mut f, limit, size)
}

/// [`read_source`] into shared bytes, as [`SourceMap`] keeps them: a regular file is read
/// straight into them (a `Vec` turned into an `Arc<[u8]>` is copied: for a 2.4 MB include,
/// 600 more pages touched and a 2.4 MB copy); anything else, or a file that changed size
/// while read, goes through [`read_source_from`].
pub fn read_source_shared(
    path: &std::path::Path,
    limit: u64,
) -> Result<std::sync::Arc<[u8]>, ReadSourceError> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let size = f.metadata().map_or(0, |m| m.len());
    let Ok(n) = usize::try_from(size) else {
        return read_source_from(&mut f, limit, size).map(Into::into);
    };
    if size == 0 || size > limit {
        return read_source_from(&mut f, limit, size).map(Into::into);
    }
    // Written once here (its pages mapped), then filled by the reads.
    let mut text: std::sync::Arc<[u8]> = std::iter::repeat_n(0u8, n).collect();
    let Some(buf) = std::sync::Arc::get_mut(&mut text) else {
        return read_source_from(&mut f, limit, size).map(Into::into);
    };
    let mut got = 0;
    while got < n {
        match f.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    if got < n {
        // The file shrank: keep what it had.
        return Ok(std::sync::Arc::from(&buf[..got]));
    }
    // The file grew: the rest goes through the general reader, under the same limit.
    let mut rest = Vec::new();
    f.take(limit.saturating_add(1) - size)
        .read_to_end(&mut rest)?;
    if rest.is_empty() {
        return Ok(text);
    }
    let mut all = buf.to_vec();
    all.extend_from_slice(&rest);
    if all.len() as u64 > limit {
        return Err(ReadSourceError::TooLarge { limit });
    }
    Ok(all.into())
}

/// [`read_source`] from any reader (standard input); `size_hint` is what the caller expects
/// (reserved up front, never more than the limit allows).
pub fn read_source_from(
    r: &mut dyn std::io::Read,
    limit: u64,
    size_hint: u64,
) -> Result<Vec<u8>, ReadSourceError> {
    use std::io::Read;
    let mut buf = Vec::new();
    let reserve = size_hint.min(limit).saturating_add(1);
    // Only a hint: a failed reservation leaves the buffer to grow as it reads.
    let _ = buf.try_reserve_exact(usize::try_from(reserve).unwrap_or(0));
    r.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(ReadSourceError::TooLarge { limit });
    }
    Ok(buf)
}

/// The source size limit [`MAX_SOURCE_BYTES_VAR`] asks for, or the default when it is not
/// set; an error message when its value is not a positive size.
pub fn max_source_bytes_from_env() -> Result<u64, String> {
    match std::env::var_os(MAX_SOURCE_BYTES_VAR) {
        None => Ok(DEFAULT_MAX_SOURCE_BYTES),
        Some(v) => {
            let v = v.to_string_lossy();
            parse_size(&v)
                .filter(|&n| n <= MAX_SOURCE_BYTES_CEILING)
                .ok_or_else(|| {
                    format!(
                        "invalid {MAX_SOURCE_BYTES_VAR} value '{v}' (expected a number of bytes \
                         from 1 to {MAX_SOURCE_BYTES_CEILING}, optionally with a K, M or G suffix)"
                    )
                })
        }
    }
}

/// The limit to use where no caller chose one: [`max_source_bytes_from_env`], or the default
/// when the variable's value is invalid (the command-line driver reports that case).
pub fn max_source_bytes() -> u64 {
    max_source_bytes_from_env().unwrap_or(DEFAULT_MAX_SOURCE_BYTES)
}

/// `123`, `64K`, `256M`, `1G` (also `KiB`, `MiB`, `GiB`): a positive byte count.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let (num, unit) = s.split_at(digits);
    let n: u64 = num.parse().ok()?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return None,
    };
    n.checked_mul(1u64 << shift).filter(|&b| b > 0)
}

/// `256 MiB`, `64 KiB`, `1000 bytes`: a size as limits are described to users.
pub fn format_size(bytes: u64) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    if bytes == 1 {
        "1 byte".to_string()
    } else {
        format!("{bytes} bytes")
    }
}

/// One macro expansion: which macro, where it was used, where it was defined, and the
/// expansion it happened inside (for nested macros).
#[derive(Clone, Debug)]
pub struct ExpnData {
    /// Interned: an expansion is recorded for every macro use.
    pub macro_name: crate::intern::Symbol,
    /// The macro name token at the use site (in the parent expansion's coordinates).
    pub call_site: Span,
    /// The macro name in its `#define` line; DUMMY for predefined and command-line macros.
    pub def_site: Span,
}

/// A `#line` directive (or GNU line marker) in effect from a physical line on.
#[derive(Clone, Debug)]
struct LineDirective {
    /// The physical line (1-based) that follows the directive.
    from_line: u32,
    /// The line number the directive gives that line.
    line: u32,
    /// The file name in effect from there (the directive's, or the one before it).
    name: Option<String>,
}

/// How the spans of one source map move when it is appended to another
/// ([`SourceMap::append`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpanShift {
    /// Files of the map before the append.
    pub files: u32,
    /// Expansions of the map before the append (less its `NONE` placeholder).
    pub expns: u32,
}

impl SpanShift {
    /// `span` of the appended map, in the combined one (a dummy span stays dummy).
    pub fn apply(self, span: Span) -> Span {
        if span.is_dummy() {
            return span;
        }
        Span {
            file: FileId(span.file.0.saturating_add(self.files)),
            expn: if span.expn == ExpnId::NONE {
                span.expn
            } else {
                ExpnId(span.expn.0.saturating_add(self.expns))
            },
            ..span
        }
    }
}

/// All files and macro expansions of one compilation.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// Index 0 is a placeholder for `ExpnId::NONE`.
    expns: Vec<ExpnData>,
    /// `#line` directives of each file (by file index), in source order.
    line_dirs: Vec<Vec<LineDirective>>,
    /// Where each file was first `#include`d (by file index; `None` for the main file),
    /// for clang's "In file included from" lines.
    include_sites: Vec<Option<Span>>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap {
            files: Vec::new(),
            expns: vec![ExpnData {
                macro_name: crate::intern::Symbol::intern(""),
                call_site: Span::DUMMY,
                def_site: Span::DUMMY,
            }],
            line_dirs: Vec::new(),
            include_sites: Vec::new(),
        }
    }

    /// Records that `file` was included by the directive naming it at `site`.
    pub fn set_include_site(&mut self, file: FileId, site: Span) {
        let i = file.0 as usize;
        if i >= self.files.len() {
            return;
        }
        if self.include_sites.len() <= i {
            self.include_sites.resize(i + 1, None);
        }
        self.include_sites[i] = Some(site);
    }

    /// Where `file` was included from, if it was.
    pub fn include_site(&self, file: FileId) -> Option<Span> {
        self.include_sites.get(file.0 as usize).copied().flatten()
    }

    /// Adds a file: its bytes as they are (not necessarily UTF-8).
    pub fn add_file(&mut self, name: impl Into<String>, bytes: &[u8]) -> FileId {
        self.files.push(SourceFile::new(name.into(), bytes));
        FileId(self.files.len() as u32 - 1)
    }

    /// [`SourceMap::add_file`] sharing bytes already loaded (a file included again, or read
    /// by [`read_source_shared`]).
    pub fn add_shared(&mut self, name: String, text: std::sync::Arc<[u8]>) -> FileId {
        self.files.push(SourceFile::new(name, text));
        FileId(self.files.len() as u32 - 1)
    }

    /// [`SourceMap::add_file`] taking the bytes.
    pub fn add_bytes(&mut self, name: impl Into<String>, bytes: Vec<u8>) -> FileId {
        self.files.push(SourceFile::new(name.into(), bytes));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn add_text(&mut self, name: impl Into<String>, text: String) -> FileId {
        self.add_bytes(name, text.into_bytes())
    }

    /// Copies every file, expansion, `#line` directive and include site of `other` into this
    /// map (after its own), so that spans of several compilations (linked translation units)
    /// can be reported from one map; the returned [`SpanShift`] moves `other`'s spans here.
    pub fn append(&mut self, other: &SourceMap) -> SpanShift {
        let shift = SpanShift {
            files: self.files.len() as u32,
            expns: self.expns.len() as u32 - 1,
        };
        for f in &other.files {
            self.files
                .push(SourceFile::new(f.name.clone(), f.text.clone()));
        }
        for e in other.expns.iter().skip(1) {
            self.expns.push(ExpnData {
                macro_name: e.macro_name,
                call_site: shift.apply(e.call_site),
                def_site: shift.apply(e.def_site),
            });
        }
        self.line_dirs.resize(shift.files as usize, Vec::new());
        self.line_dirs.extend(other.line_dirs.iter().cloned());
        self.include_sites.resize(shift.files as usize, None);
        self.include_sites.extend(
            other
                .include_sites
                .iter()
                .map(|s| s.map(|s| shift.apply(s))),
        );
        shift
    }

    pub fn file(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    pub fn add_expansion(&mut self, data: ExpnData) -> ExpnId {
        self.expns.push(data);
        ExpnId(self.expns.len() as u32 - 1)
    }

    pub fn expansion(&self, id: ExpnId) -> Option<&ExpnData> {
        if id == ExpnId::NONE {
            None
        } else {
            self.expns.get(id.0 as usize)
        }
    }

    /// Where a diagnostic at `span` is reported: the outermost macro use site, as clang does.
    pub fn report_span(&self, span: Span) -> Span {
        let mut s = span;
        let mut guard = 0;
        while let Some(e) = self.expansion(s.expn) {
            s = e.call_site;
            guard += 1;
            if guard > 10_000 {
                break;
            }
        }
        s
    }

    /// The chain of expansions `span` came through, innermost first.
    pub fn expansion_chain(&self, span: Span) -> Vec<&ExpnData> {
        let mut out = Vec::new();
        let mut s = span;
        while let Some(e) = self.expansion(s.expn) {
            out.push(e);
            s = e.call_site;
            if out.len() > 10_000 {
                break;
            }
        }
        out
    }

    /// File name, 1-based line and column of the start of `span` (after `report_span`), as
    /// clang reports them: `#line` directives change the name and line.
    pub fn location(&self, span: Span) -> Option<(&str, u32, u32)> {
        let s = self.report_span(span);
        let f = self.file(s.file)?;
        let (l, c) = f.line_col(s.lo);
        let (name, l) = self.presumed(s.file, l);
        Some((name, l, c))
    }

    /// Records a `#line` directive of `file`: physical line `from_line` on is line `line`
    /// of `name` (the file's own name, or an earlier directive's, when `None`).
    pub fn add_line_directive(
        &mut self,
        file: FileId,
        from_line: u32,
        line: u32,
        name: Option<String>,
    ) {
        let i = file.0 as usize;
        if i >= self.files.len() {
            return;
        }
        if self.line_dirs.len() <= i {
            self.line_dirs.resize(i + 1, Vec::new());
        }
        let name = name.or_else(|| self.line_dirs[i].last().and_then(|d| d.name.clone()));
        self.line_dirs[i].push(LineDirective {
            from_line,
            line,
            name,
        });
    }

    /// The file name and line number clang reports for physical `line` of `file` (its
    /// "presumed" location): as the last `#line` directive before it says, else unchanged.
    pub fn presumed(&self, file: FileId, line: u32) -> (&str, u32) {
        let own = self.file(file).map_or("", |f| f.name.as_str());
        let dirs = self
            .line_dirs
            .get(file.0 as usize)
            .map_or(&[][..], |d| &d[..]);
        let i = dirs.partition_point(|d| d.from_line <= line);
        match i.checked_sub(1).and_then(|i| dirs.get(i)) {
            Some(d) => (
                d.name.as_deref().unwrap_or(own),
                d.line.wrapping_add(line - d.from_line),
            ),
            None => (own, line),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_source_stops_after_the_limit() {
        let mut zeros = std::io::repeat(0);
        match read_source_from(&mut zeros, 1000, u64::MAX) {
            Err(e @ ReadSourceError::TooLarge { limit: 1000 }) => assert_eq!(
                e.message("'z.cl'"),
                "'z.cl' is larger than the 1000 bytes source limit (OCLC_MAX_SOURCE_BYTES)"
            ),
            other => panic!("{other:?}"),
        }
        let mut exact: &[u8] = &[b'x'; 1000];
        assert_eq!(read_source_from(&mut exact, 1000, 0).unwrap().len(), 1000);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn read_source_of_dev_zero_ends() {
        match read_source(std::path::Path::new("/dev/zero"), 256 << 20) {
            Err(e) => assert_eq!(
                e.message("'/dev/zero'"),
                "'/dev/zero' is larger than the 256 MiB source limit (OCLC_MAX_SOURCE_BYTES)"
            ),
            Ok(b) => panic!("read {} bytes", b.len()),
        }
    }

    /// The shared read gives a file's exact bytes, an empty file included, and keeps the
    /// limit (a file over it, and a device that reports no size, are errors after it).
    #[test]
    fn read_source_shared_reads_whole_files_under_the_limit() {
        let dir = std::env::temp_dir().join(format!("oclc-shared-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let big = dir.join("big.cl");
        std::fs::write(&big, &text).unwrap();
        assert_eq!(&*read_source_shared(&big, 1 << 20).unwrap(), &text[..]);
        match read_source_shared(&big, 299_999) {
            Err(ReadSourceError::TooLarge { limit: 299_999 }) => {}
            other => panic!("{other:?}"),
        }
        let empty = dir.join("empty.cl");
        std::fs::write(&empty, b"").unwrap();
        assert!(read_source_shared(&empty, 10).unwrap().is_empty());
        #[cfg(target_os = "linux")]
        match read_source_shared(std::path::Path::new("/dev/zero"), 4096) {
            Err(ReadSourceError::TooLarge { limit: 4096 }) => {}
            other => panic!("{other:?}"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("256M"), Some(256 << 20));
        assert_eq!(parse_size("64 KiB"), Some(64 << 10));
        assert_eq!(parse_size("1000"), Some(1000));
        assert_eq!(parse_size("0"), None);
        assert_eq!(parse_size("-1"), None);
        assert_eq!(parse_size("9999999999999G"), None);
        assert_eq!(parse_size("12X"), None);
        assert_eq!(format_size(256 << 20), "256 MiB");
        assert_eq!(format_size(3 << 30), "3 GiB");
        assert_eq!(format_size(1536), "1536 bytes");
    }

    #[test]
    fn line_col_and_text() {
        let f = SourceFile::new("a.cl".into(), b"ab\ncd\r\n\nx".to_vec());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(4), (2, 2));
        assert_eq!(f.line_col(8), (4, 1));
        assert_eq!(f.line_text(2), "cd");
        assert_eq!(f.line_text(3), "");
        assert_eq!(f.line_text(99), "");
    }

    #[test]
    fn lone_carriage_return_is_a_line_end() {
        // `\r` alone ends a line (old Mac files), `\r\n` is one line end.
        let f = SourceFile::new("a.cl".into(), b"ab\rcd\r\nx\r\ry".to_vec());
        assert_eq!(&f.text[..], b"ab\ncd\r\nx\n\ny");
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(7), (3, 1));
        assert_eq!(f.line_col(10), (5, 1));
        assert_eq!(f.line_text(2), "cd");
        assert_eq!(f.line_count(), 5);
    }

    #[test]
    fn report_span_walks_to_outermost_use() {
        let mut sm = SourceMap::new();
        let f = sm.add_text("a.cl", "#define A 1\nint x = A;".into());
        let use_site = Span::new(f, 20, 21);
        let e = sm.add_expansion(ExpnData {
            macro_name: crate::intern::Symbol::intern("A"),
            call_site: use_site,
            def_site: Span::new(f, 8, 9),
        });
        let tok = Span {
            file: f,
            lo: 10,
            hi: 11,
            expn: e,
        };
        assert_eq!(sm.report_span(tok), use_site);
        assert_eq!(sm.location(tok), Some(("a.cl", 2, 9)));
    }
}

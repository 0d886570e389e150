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

/// One loaded file: its name as given, its text (invalid UTF-8 replaced), and line starts.
#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Computed when first asked for: most files (the predefined macros' text, a clean
    /// input) never need a line number.
    line_starts: std::sync::OnceLock<Vec<u32>>,
}

impl SourceFile {
    pub fn new(name: String, text: String) -> SourceFile {
        SourceFile {
            name,
            text,
            line_starts: std::sync::OnceLock::new(),
        }
    }

    /// Byte offsets at which lines start (the first is 0).
    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = Vec::with_capacity(self.text.len() / 32 + 1);
            starts.push(0u32);
            starts.extend(self.text.match_indices('\n').map(|(i, _)| i as u32 + 1));
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

    /// The text of 1-based `line`, without its line terminator.
    pub fn line_text(&self, line: u32) -> &str {
        let starts = self.line_starts();
        let i = (line.max(1) - 1) as usize;
        let Some(&start) = starts.get(i) else {
            return "";
        };
        let end = starts.get(i + 1).map_or(self.text.len(), |&e| e as usize);
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts().len() as u32
    }
}

/// One macro expansion: which macro, where it was used, where it was defined, and the
/// expansion it happened inside (for nested macros).
#[derive(Clone, Debug)]
pub struct ExpnData {
    pub macro_name: String,
    /// The macro name token at the use site (in the parent expansion's coordinates).
    pub call_site: Span,
    /// The macro name in its `#define` line; DUMMY for predefined and command-line macros.
    pub def_site: Span,
}

/// All files and macro expansions of one compilation.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// Index 0 is a placeholder for `ExpnId::NONE`.
    expns: Vec<ExpnData>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap {
            files: Vec::new(),
            expns: vec![ExpnData {
                macro_name: String::new(),
                call_site: Span::DUMMY,
                def_site: Span::DUMMY,
            }],
        }
    }

    /// Adds a file; bytes that are not UTF-8 are replaced with U+FFFD.
    pub fn add_file(&mut self, name: impl Into<String>, bytes: &[u8]) -> FileId {
        // `from_utf8` checks ASCII a word at a time; the lossy path only for invalid input.
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t.to_owned(),
            Err(_) => String::from_utf8_lossy(bytes).into_owned(),
        };
        self.add_text(name, text)
    }

    pub fn add_text(&mut self, name: impl Into<String>, text: String) -> FileId {
        self.files.push(SourceFile::new(name.into(), text));
        FileId(self.files.len() as u32 - 1)
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

    /// File name, 1-based line and column of the start of `span` (after `report_span`).
    pub fn location(&self, span: Span) -> Option<(&str, u32, u32)> {
        let s = self.report_span(span);
        let f = self.file(s.file)?;
        let (l, c) = f.line_col(s.lo);
        Some((&f.name, l, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_and_text() {
        let f = SourceFile::new("a.cl".into(), "ab\ncd\r\n\nx".into());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(4), (2, 2));
        assert_eq!(f.line_col(8), (4, 1));
        assert_eq!(f.line_text(2), "cd");
        assert_eq!(f.line_text(3), "");
        assert_eq!(f.line_text(99), "");
    }

    #[test]
    fn report_span_walks_to_outermost_use() {
        let mut sm = SourceMap::new();
        let f = sm.add_text("a.cl", "#define A 1\nint x = A;".into());
        let use_site = Span::new(f, 20, 21);
        let e = sm.add_expansion(ExpnData {
            macro_name: "A".into(),
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

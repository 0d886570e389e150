//! Orders the front end's diagnostics as clang emits them. clang preprocesses, parses and
//! checks in one pass, so a `#warning` after a function comes after that function's errors;
//! oclc's stages run one after another. Each stage keeps its own order (which already follows
//! clang's where clang's is not source order, e.g. sema's end-of-function warnings), and the
//! three stages are merged by where each diagnostic is emitted in the translation unit.

use oclc_syntax::{Diagnostic, FileId, Level, SourceMap, Span};

/// Deepest `#include` chain followed for a position (the preprocessor stops far earlier).
const MAX_CHAIN: usize = 512;

/// Merges the preprocessor's diagnostics (`diags[..bounds[0]]`), the parser's
/// (`..bounds[1]`) and sema's (the rest) by position, keeping each stage's order; on equal
/// positions the earlier stage comes first. `includes` gives each included file's first
/// `#include`; `main` is the translation unit's file.
pub fn merge_stages(
    diags: &mut Vec<Diagnostic>,
    bounds: [usize; 2],
    main: FileId,
    includes: &[(FileId, Span)],
    sm: &SourceMap,
) {
    let n = diags.len();
    let (a, b) = (bounds[0].min(n), bounds[1].min(n).max(bounds[0].min(n)));
    let stages = [0..a, a..b, b..n];
    if stages.iter().filter(|r| !r.is_empty()).count() < 2 {
        return;
    }
    let site = |f: FileId| {
        sm.include_site(f)
            .or_else(|| includes.iter().find(|(id, _)| *id == f).map(|&(_, s)| s))
    };
    let mut keys: Vec<Vec<u32>> = diags
        .iter()
        .map(|d| position(d.order.unwrap_or(d.span), main, &site, sm))
        .collect();
    // After a fatal error (the preprocessor's or the parser's) clang stops: what the later
    // stages report from its line on (the construct it interrupted) would have come after
    // it, and is dropped with the rest.
    if let Some(f) = diags[..b].iter().position(|d| d.level == Level::Fatal) {
        let later = if f < a { a } else { b };
        let s = sm.report_span(diags[f].span);
        let line_start = sm
            .file(s.file)
            .and_then(|file| file.text.get(..s.lo as usize))
            .and_then(|t| t.iter().rposition(|&c| c == b'\n'))
            .map_or(0, |i| i as u32 + 1);
        let cut = position(
            Span {
                lo: line_start,
                hi: line_start,
                ..s
            },
            main,
            &site,
            sm,
        );
        for k in keys.iter_mut().skip(later) {
            if *k >= cut {
                *k = vec![u32::MAX; k.len().max(cut.len()) + 1];
            }
        }
    }
    let mut next = stages.clone().map(|r| r.start);
    let mut order = Vec::with_capacity(n);
    loop {
        let mut best: Option<usize> = None;
        for (s, r) in stages.iter().enumerate() {
            if next[s] >= r.end {
                continue;
            }
            match best {
                Some(b) if keys[next[b]] <= keys[next[s]] => {}
                _ => best = Some(s),
            }
        }
        let Some(s) = best else { break };
        order.push(next[s]);
        next[s] += 1;
    }
    if order.iter().enumerate().all(|(i, &j)| i == j) {
        return;
    }
    let mut slots: Vec<Option<Diagnostic>> = std::mem::take(diags).into_iter().map(Some).collect();
    *diags = order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect();
}

/// A position in reading order: the offsets of the `#include`s leading to the file, then the
/// offset in it. Positions outside the translation unit's files (the command line, the
/// predefined macros) and dummy spans come first.
fn position(
    span: Span,
    main: FileId,
    site: &dyn Fn(FileId) -> Option<Span>,
    sm: &SourceMap,
) -> Vec<u32> {
    if span.is_dummy() {
        return Vec::new();
    }
    let s = sm.report_span(span);
    let mut path = vec![s.lo];
    let mut file = s.file;
    while file != main {
        let Some(at) = site(file).filter(|_| path.len() < MAX_CHAIN) else {
            return Vec::new();
        };
        let r = sm.report_span(at);
        path.push(r.lo);
        file = r.file;
    }
    path.reverse();
    path
}

//! Orders the front end's diagnostics as clang emits them. clang preprocesses, parses and
//! checks in one pass, so a `#warning` after a function comes after that function's errors;
//! oclc's stages run one after another. Each stage keeps its own order (which already follows
//! clang's where clang's is not source order, e.g. sema's end-of-function warnings), and the
//! three stages are merged by where each diagnostic is emitted in the translation unit.
//! Inside a macro expansion, where every token reports the same place, the parser's and
//! sema's diagnostics are ordered by the token they are at in the expanded stream.

use oclc_syntax::fxhash::FxHashMap;
use oclc_syntax::{Diagnostic, ExpnId, FileId, Level, SourceMap, Span, Token};

/// Deepest `#include` chain followed for a position (the preprocessor stops far earlier).
const MAX_CHAIN: usize = 512;

/// Merges the preprocessor's diagnostics (`diags[..bounds[0]]`), the parser's
/// (`..bounds[1]`) and sema's (the rest) by position, keeping each stage's order; on equal
/// positions the earlier stage comes first. `includes` gives each included file's first
/// `#include`; `main` is the translation unit's file; `tokens` are the parser's.
pub fn merge_stages(
    diags: &mut Vec<Diagnostic>,
    bounds: [usize; 2],
    main: FileId,
    includes: &[(FileId, Span)],
    tokens: &[Token],
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
    let mut keys: Vec<(Vec<u32>, u32)> = diags
        .iter()
        .map(|d| (position(d.order.unwrap_or(d.span), main, &site, sm), 0))
        .collect();
    if diags[a..]
        .iter()
        .any(|d| d.order.unwrap_or(d.span).expn != ExpnId::NONE)
    {
        in_stream(&mut keys, diags, [a..b, b..n], tokens, main, &site, sm);
    }
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
            if k.0 >= cut {
                *k = (vec![u32::MAX; k.0.len().max(cut.len()) + 1], u32::MAX);
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

/// Keys the parser's and sema's diagnostics (`stages`) by the token of `tokens` each is
/// emitted at: the furthest position any token up to it reports (so a token of a macro
/// argument and the macro body's tokens after it share the argument's), then the token's
/// index plus one. The parser's diagnostics know their token; sema's are at the token their
/// span starts, of tokens with the same span (an argument substituted several times) the
/// first not before the previous diagnostic's. A diagnostic at no token keeps its position.
fn in_stream(
    keys: &mut [(Vec<u32>, u32)],
    diags: &[Diagnostic],
    stages: [std::ops::Range<usize>; 2],
    tokens: &[Token],
    main: FileId,
    site: &dyn Fn(FileId) -> Option<Span>,
    sm: &SourceMap,
) {
    let at = |d: &Diagnostic| {
        let s = d.order.unwrap_or(d.span);
        (s.file, s.lo, s.expn)
    };
    // Sema's diagnostic spans: their token indices (plus one) and the furthest position
    // reported there; the parser's token indices, sorted, with the same.
    let mut hits: FxHashMap<(FileId, u32, ExpnId), Vec<Hit>> = FxHashMap::default();
    let mut wanted: Vec<Hit> = Vec::new();
    for d in stages.iter().flat_map(|r| &diags[r.clone()]) {
        match d.token {
            Some(t) => wanted.push((t, Vec::new())),
            None => {
                hits.entry(at(d)).or_default();
            }
        }
    }
    wanted.sort_unstable_by_key(|w| w.0);
    wanted.dedup_by_key(|w| w.0);
    let mut next_wanted = 0;
    let mut furthest: Vec<u32> = Vec::new();
    let mut here: Vec<u32> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        position_into(t.span, main, site, sm, &mut here);
        if here > furthest {
            std::mem::swap(&mut furthest, &mut here);
        }
        while let Some(w) = wanted.get_mut(next_wanted).filter(|w| w.0 as usize <= i) {
            w.1.clone_from(&furthest);
            next_wanted += 1;
        }
        if let Some(v) = hits.get_mut(&(t.span.file, t.span.lo, t.span.expn)) {
            v.push((i as u32 + 1, furthest.clone()));
        }
    }
    for r in stages {
        let mut last = 0;
        for i in r {
            let d = &diags[i];
            let found = match d.token {
                Some(t) => wanted
                    .binary_search_by_key(&t, |w| w.0)
                    .ok()
                    .and_then(|k| wanted.get(k))
                    .filter(|w| (w.0 as usize) < tokens.len())
                    .map(|w| (w.0 + 1, &w.1)),
                None => hits.get(&at(d)).and_then(|v| {
                    v.iter()
                        .find(|h| h.0 >= last)
                        .or(v.first())
                        .map(|h| (h.0, &h.1))
                }),
            };
            if let Some((idx, pos)) = found {
                last = idx;
                keys[i] = (pos.clone(), idx);
            }
        }
    }
}

/// A token index (plus one for sema's) and the furthest position reported up to it.
type Hit = (u32, Vec<u32>);

/// A position in reading order: the offsets of the `#include`s leading to the file, then the
/// offset in it. Positions outside the translation unit's files (the command line, the
/// predefined macros) and dummy spans come first.
fn position(
    span: Span,
    main: FileId,
    site: &dyn Fn(FileId) -> Option<Span>,
    sm: &SourceMap,
) -> Vec<u32> {
    let mut path = Vec::new();
    position_into(span, main, site, sm, &mut path);
    path
}

/// [`position`] into `path` (cleared first), reusing its allocation.
fn position_into(
    span: Span,
    main: FileId,
    site: &dyn Fn(FileId) -> Option<Span>,
    sm: &SourceMap,
    path: &mut Vec<u32>,
) {
    path.clear();
    if span.is_dummy() {
        return;
    }
    let s = sm.report_span(span);
    path.push(s.lo);
    let mut file = s.file;
    while file != main {
        let Some(at) = site(file).filter(|_| path.len() < MAX_CHAIN) else {
            path.clear();
            return;
        };
        let r = sm.report_span(at);
        path.push(r.lo);
        file = r.file;
    }
    path.reverse();
}

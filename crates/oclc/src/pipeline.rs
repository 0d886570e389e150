//! The one place that calls the front-end stages (preprocess → parse → sema), so the rest of
//! the driver does not depend on their signatures.

use oclc_syntax::ast::{ExternalDecl, TranslationUnit};
use oclc_syntax::pp::{self, PpOptions, PpOutput};
use oclc_syntax::{Diagnostics, FileId, SourceMap, Span};

use crate::check::{CheckOptions, Schedule};

pub use oclc_sema::hir::Program;
pub use oclc_syntax::pp::MacroArg;

/// Syntax trees of at least this many top-level items are freed on another thread.
const BACKGROUND_DROP_ITEMS: usize = 1024;

/// What the stages hand back besides diagnostics.
pub struct FrontEnd {
    pub skipped: Vec<Span>,
    /// Length of the diagnostics list once the parser was done (sema's follow).
    pub parse_end: usize,
    pub program: Option<Program>,
}

/// The first stage: its recursion is bounded by the preprocessor's own limits, while the later
/// stages ([`parse_and_check`]) nest as deep as the tokens it produces.
pub fn preprocess(
    sm: &mut SourceMap,
    main: FileId,
    opts: &CheckOptions,
    diags: &mut Diagnostics,
) -> PpOutput {
    let pp_opts = PpOptions {
        lang: opts.lang.clone(),
        macros: opts.macros.clone(),
        include_dirs: opts.include_dirs.clone(),
    };
    pp::preprocess(sm, main, &pp_opts, diags)
}

/// The stages after [`preprocess`], on the caller's thread: its stack must take the nesting
/// of `out` (any input, on [`crate::check::FRONT_END_STACK_SIZE`]).
pub fn parse_and_check(
    out: &PpOutput,
    sm: &SourceMap,
    opts: &CheckOptions,
    diags: &mut Diagnostics,
) -> FrontEnd {
    let before = diags.list.len();
    let streamed = match opts.schedule {
        // A small tree costs little to keep whole, and in order a parse error costs no second
        // pass (the streaming ways start over in order after one).
        Schedule::Auto if out.tokens.len() < PIPELINE_TOKENS => None,
        Schedule::Auto if use_parse_thread(out) => pipelined(out, sm, opts, diags),
        Schedule::Auto | Schedule::Interleaved => interleaved(out, sm, opts, diags),
        Schedule::TwoThreads => pipelined(out, sm, opts, diags),
        Schedule::InOrder => None,
    };
    let (tu, program, parse_end) = match streamed {
        // The streaming parser reported nothing.
        Some((tu, program)) => (tu, program, before),
        None => {
            let tu = oclc_syntax::parse::parse_on_this_thread(out, sm, &opts.lang, diags);
            let parse_end = diags.list.len();
            let program = oclc_sema::check_with(&tu, sm, &opts.lang, diags, opts.bodies());
            (tu, program, parse_end)
        }
    };
    // Freeing a large file's syntax tree takes a tenth of its check: another thread does it.
    if opts.leak_syntax_tree {
        std::mem::forget(tu);
    } else if tu.items.len() >= BACKGROUND_DROP_ITEMS {
        // (Not on a rayon pool, whose workers a caller may keep busy.)
        // Its stack takes what the front end's does: dropping a tree recurses as it nests
        // (and along operator chains, which are not nesting).
        let _ = std::thread::Builder::new()
            .name("oclc-free".into())
            .stack_size(crate::check::FRONT_END_STACK_SIZE)
            .spawn(move || drop(tu));
    }
    FrontEnd {
        skipped: out.skipped.clone(),
        parse_end,
        program: Some(program),
    }
}

/// Inputs of at least this many tokens are parsed while sema checks the items already parsed,
/// on one thread or two (below it, [`Schedule::Auto`] parses and checks in order).
const PIPELINE_TOKENS: usize = 1 << 16;

/// Heap the parser thread needs per token, about (reserved up front: see
/// [`oclc_syntax::heap`]): only the batches in flight are alive, as sema hands each back to be
/// freed, so this is far less than a whole syntax tree.
const PARSE_BYTES_PER_TOKEN: usize = 24;

/// The same for sema's program and what the thread does next (the cast analysis's serial
/// parts).
const SEMA_BYTES_PER_TOKEN: usize = 96;

/// Top-level items handed from the parser to sema at a time.
const PIPELINE_BATCH: usize = 2;

/// Batches the parser may be ahead of sema (it waits beyond that): bounds the syntax tree
/// alive at once.
const PIPELINE_IN_FLIGHT: usize = 4;

/// Whether parse and sema of `out` run on two threads ([`pipelined`]) rather than taking
/// turns on this one ([`interleaved`]): for large inputs on a machine with cores to spare.
/// Two threads shorten the wall time there, but they cost more CPU time in all (sema reads
/// each syntax tree from the other core's cache, and the parser frees it back there: about
/// a sixth more on a large kernel), so with few cores, which other work likely shares, one
/// thread does better.
fn use_parse_thread(out: &PpOutput) -> bool {
    out.tokens.len() >= PIPELINE_TOKENS
        && std::thread::available_parallelism().is_ok_and(|n| n.get() >= PARSE_THREAD_CORES)
}

/// Cores from which [`use_parse_thread`] starts a parser thread.
const PARSE_THREAD_CORES: usize = 4;

/// Heap [`interleaved`] needs per token, about: the syntax tree and HIR of one item at a
/// time (their memory is reused for the next), the program's declarations and the scopes.
const INTERLEAVED_BYTES_PER_TOKEN: usize = 24;

/// Parse and sema taking turns on this thread: sema checks each top-level item as soon as it
/// is parsed, and the parser frees it next (its boxes are reused for the next item), so the
/// syntax tree never exists whole and stays in this core's cache between the two. As with
/// [`pipelined`], the result is the sequential one: when the parser reports anything, `None`
/// (the caller parses and checks again in order).
fn interleaved(
    out: &PpOutput,
    sm: &SourceMap,
    opts: &CheckOptions,
    diags: &mut Diagnostics,
) -> Option<(TranslationUnit, Program)> {
    let lang = &opts.lang;
    // This thread's heap grows in large steps rather than a page at a time (see
    // `oclc_syntax::heap`): a front-end thread's heap starts empty.
    oclc_syntax::heap::reserve(out.tokens.len() * INTERLEAVED_BYTES_PER_TOKEN);
    let mut parse_diags = Diagnostics::default();
    // Sema appends to the preprocessor's diagnostics, as in order (the last one may take its
    // notes).
    let before = diags.list.len();
    let mut sema_diags = std::mem::take(diags);
    let mut checker = oclc_sema::ItemChecker::new(sm, lang, &mut sema_diags, opts.bodies());
    let tu = oclc_syntax::parse::parse_on_this_thread_into(
        out,
        sm,
        lang,
        &mut parse_diags,
        &mut |item| {
            checker.item(&item);
            oclc_syntax::ast::recycle(std::iter::once(item));
        },
    );
    let program = checker.finish();
    if opts.leak_syntax_tree {
        oclc_syntax::ast::leak_spares();
        oclc_sema::hir::leak_spares();
    }
    if !parse_diags.list.is_empty() {
        sema_diags.list.truncate(before);
        *diags = sema_diags;
        return None;
    }
    *diags = sema_diags;
    Some((tu, program))
}

/// Parse and sema at once on a large input: the parser runs on its own thread (with the
/// front end's stack) and sends items to sema, on this thread, in batches as it finishes them;
/// sema sends each batch back once checked and the parser frees it, so the syntax tree never
/// exists whole and its memory is reused by the items parsed next (freeing it on the thread
/// that allocated it stays cheap). The result is the sequential one: when the parser reports
/// anything, the pipelined work is dropped and `None` returned, and the caller parses and
/// checks again in order (a note sema attaches to the last diagnostic could otherwise land
/// elsewhere). `None` (nothing done) also for small inputs (unless [`Schedule::TwoThreads`]
/// asks for the thread), or when no thread can be started.
fn pipelined(
    out: &PpOutput,
    sm: &SourceMap,
    opts: &CheckOptions,
    diags: &mut Diagnostics,
) -> Option<(TranslationUnit, Program)> {
    if out.tokens.len() < PIPELINE_TOKENS && opts.schedule != Schedule::TwoThreads {
        return None;
    }
    let lang = &opts.lang;
    // A process that exits after this check need not free what the threads keep for reuse.
    let leak = opts.leak_syntax_tree;
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<ExternalDecl>>(PIPELINE_IN_FLIGHT);
        let (back_tx, back_rx) = std::sync::mpsc::channel::<Vec<ExternalDecl>>();
        let parser = std::thread::Builder::new()
            .name("oclc-parse".into())
            .stack_size(crate::check::FRONT_END_STACK_SIZE)
            .spawn_scoped(s, move || {
                oclc_syntax::heap::reserve(out.tokens.len() * PARSE_BYTES_PER_TOKEN);
                let mut parse_diags = Diagnostics::default();
                let mut batch = Vec::with_capacity(PIPELINE_BATCH);
                let tu = oclc_syntax::parse::parse_on_this_thread_into(
                    out,
                    sm,
                    lang,
                    &mut parse_diags,
                    &mut |item| {
                        // Checked batches are freed here, where they were allocated.
                        while let Ok(done) = back_rx.try_recv() {
                            oclc_syntax::ast::recycle(done);
                        }
                        batch.push(item);
                        if batch.len() >= PIPELINE_BATCH {
                            let full =
                                std::mem::replace(&mut batch, Vec::with_capacity(PIPELINE_BATCH));
                            // A closed channel means sema stopped (it panicked): just finish.
                            let _ = tx.send(full);
                        }
                    },
                );
                if !batch.is_empty() {
                    let _ = tx.send(batch);
                }
                drop(tx);
                // The rest come back as sema finishes; the channel closes when it is done.
                for done in back_rx {
                    oclc_syntax::ast::recycle(done);
                }
                if leak {
                    oclc_syntax::ast::leak_spares();
                }
                (tu, parse_diags)
            })
            .ok()?;
        oclc_syntax::heap::reserve(out.tokens.len() * SEMA_BYTES_PER_TOKEN);
        // Sema appends to the preprocessor's diagnostics, as in order (the last one may take
        // its notes).
        let before = diags.list.len();
        let mut sema_diags = std::mem::take(diags);
        let program = {
            let back = back_tx;
            oclc_sema::check_items(rx, sm, lang, &mut sema_diags, opts.bodies(), |done| {
                // A closed channel means the parser stopped (it panicked): free it here.
                let _ = back.send(done);
            })
        };
        let (tu, parse_diags) = match parser.join() {
            Ok(r) => r,
            // A panic in a stage is a bug; keep it visible to tests and fuzzers.
            Err(payload) => std::panic::resume_unwind(payload),
        };
        if leak {
            oclc_sema::hir::leak_spares();
        }
        if !parse_diags.list.is_empty() {
            sema_diags.list.truncate(before);
            *diags = sema_diags;
            return None;
        }
        *diags = sema_diags;
        Some((tu, program))
    })
}

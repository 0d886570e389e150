//! IR passes: mem2reg, fold, address-space inference and per-call-site specialization, dce.

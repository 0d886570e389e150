//! Lowering of the checked HIR (`oclc_sema::hir`) to the SSA IR (`oclc_ir`).

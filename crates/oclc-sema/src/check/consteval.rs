//! Integer constant expressions (C99 6.6) over the checked tree: array bounds, enumerators,
//! `case` labels, null-pointer constants, sampler initializers. A `__constant` variable with a
//! constant initializer counts too, as clang folds it (address-spaces.cl uses one in an enum).

use super::Checker;
use crate::hir::{BinOp, CastKind, Expr, ExprKind, Init, Storage, UnOp};
use crate::types::{LangAs, Scalar};

impl Checker<'_> {
    /// The value of an integer constant expression, wrapped to the expression's type.
    pub(crate) fn const_int(&self, e: &Expr) -> Option<i64> {
        self.eval_int(e, 0)
    }

    fn eval_int(&self, e: &Expr, depth: u32) -> Option<i64> {
        if depth > 256 {
            return None;
        }
        let d = depth + 1;
        let v = match &e.kind {
            ExprKind::IntLit(v) => *v as i64,
            ExprKind::Const(v) => *v,
            ExprKind::Var(id) => {
                // A program-scope `__constant` integer, or a `const` integer variable, with a
                // constant initializer: clang folds both (the latter as a GNU extension).
                let var = self.prog.var(*id)?;
                let sp = self.prog.types.object_space(var.ty);
                let constant_global =
                    sp == Some(LangAs::CONSTANT) && var.storage == Storage::Program;
                let const_var = self.prog.types.canonical(var.ty).quals.is_const()
                    && var.storage != Storage::Param;
                if !(constant_global || const_var) || !self.prog.types.is_integer(var.ty) {
                    return None;
                }
                match &var.init {
                    Some(Init::Expr(x)) => self.eval_int(x, d)?,
                    _ => return None,
                }
            }
            ExprKind::Cast(k, x) => match k {
                CastKind::LValueToRValue
                | CastKind::Integral
                | CastKind::NoOp
                | CastKind::NullToPointer
                | CastKind::IntToPtr
                | CastKind::PtrToInt => self.eval_int(x, d)?,
                CastKind::ToBool => i64::from(
                    self.eval_int(x, d)
                        .map(|v| v != 0)
                        .or_else(|| self.const_float(x).map(|f| f != 0.0))?,
                ),
                CastKind::FloatToInt => {
                    let f = self.const_float(x)?;
                    if !f.is_finite() {
                        return None;
                    }
                    f as i64
                }
                _ => return None,
            },
            ExprKind::Unary(op, x) => {
                let v = self.eval_int(x, d)?;
                match op {
                    UnOp::Neg => v.wrapping_neg(),
                    UnOp::BitNot => !v,
                    UnOp::LogNot => i64::from(v == 0),
                    _ => return None,
                }
            }
            ExprKind::Binary(op, a, b) if !matches!(a.kind, ExprKind::Binary(..)) => {
                if self.prog.types.as_vector(e.ty).is_some() {
                    return None;
                }
                let x = self.eval_int(a, d)?;
                let y = self.eval_int(b, d)?;
                let unsigned = self
                    .prog
                    .types
                    .as_scalar(a.ty)
                    .is_some_and(|s| !s.is_signed());
                int_binop(*op, x, y, unsigned)?
            }
            ExprKind::Binary(..) => {
                // A chain (`1 + 2 + 3 ...`) is folded in a loop: its length is not nesting.
                let mut links = Vec::new();
                let mut leaf = e;
                while let ExprKind::Binary(op, a, b) = &leaf.kind {
                    if self.prog.types.as_vector(leaf.ty).is_some() {
                        return None;
                    }
                    links.push((leaf, *op, &**a, &**b));
                    leaf = a;
                }
                let mut x = self.eval_int(leaf, d)?;
                for (node, op, a, b) in links.into_iter().rev() {
                    let y = self.eval_int(b, d)?;
                    let unsigned = self
                        .prog
                        .types
                        .as_scalar(a.ty)
                        .is_some_and(|s| !s.is_signed());
                    x = self.wrap(int_binop(op, x, y, unsigned)?, node);
                }
                x
            }
            ExprKind::Cond(c, t, f) => {
                if self.eval_int(c, d)? != 0 {
                    self.eval_int(t, d)?
                } else {
                    self.eval_int(f, d)?
                }
            }
            ExprKind::Comma(_, _) => return None,
            _ => return None,
        };
        Some(self.wrap(v, e))
    }

    /// Truncates/extends a value to the width and signedness of `e`'s type.
    fn wrap(&self, v: i64, e: &Expr) -> i64 {
        let Some(s) = self.prog.types.as_scalar(e.ty) else {
            return v;
        };
        if s == Scalar::Bool {
            return i64::from(v != 0);
        }
        let bits = s.size() * 8;
        if bits >= 64 || s.is_float() {
            return v;
        }
        let mask = (1i64 << bits) - 1;
        let u = v & mask;
        if s.is_signed() && u & (1i64 << (bits - 1)) != 0 {
            u - (1i64 << bits)
        } else {
            u
        }
    }

    /// The value of a constant floating expression (literals, negation, conversions).
    pub(crate) fn const_float(&self, e: &Expr) -> Option<f64> {
        self.eval_float(e, 0)
    }

    /// [`Self::const_float`] with a recursion bound (chains of `__constant` variables).
    fn eval_float(&self, e: &Expr, depth: u32) -> Option<f64> {
        if depth > 256 {
            return None;
        }
        let d = depth + 1;
        match &e.kind {
            ExprKind::FloatLit(f) => Some(*f),
            // A program-scope `__constant` floating variable with a constant initializer, which
            // clang folds (`__constant float C = A / B;`).
            ExprKind::Var(id) => {
                let var = self.prog.var(*id)?;
                let sp = self.prog.types.object_space(var.ty);
                if sp != Some(LangAs::CONSTANT)
                    || var.storage != Storage::Program
                    || !self
                        .prog
                        .types
                        .as_scalar(var.ty)
                        .is_some_and(|s| s.is_float())
                {
                    return None;
                }
                match &var.init {
                    Some(Init::Expr(x)) => self.eval_float(x, d),
                    _ => None,
                }
            }
            ExprKind::Unary(UnOp::Neg, x) => self.eval_float(x, d).map(|f| -f),
            ExprKind::Cast(CastKind::Float | CastKind::NoOp | CastKind::LValueToRValue, x) => {
                self.eval_float(x, d)
            }
            ExprKind::Cast(CastKind::IntToFloat, x) => self.const_int(x).map(|v| v as f64),
            ExprKind::Binary(..) => {
                // A chain is folded in a loop, as in `eval_int`.
                let mut links = Vec::new();
                let mut leaf = e;
                while let ExprKind::Binary(op, a, b) = &leaf.kind {
                    if self.prog.types.as_vector(leaf.ty).is_some() {
                        return None;
                    }
                    links.push((*op, &**b));
                    leaf = a;
                }
                let mut x = self.eval_float(leaf, d)?;
                for (op, b) in links.into_iter().rev() {
                    let y = self.eval_float(b, d)?;
                    x = match op {
                        BinOp::Add => x + y,
                        BinOp::Sub => x - y,
                        BinOp::Mul => x * y,
                        BinOp::Div => x / y,
                        _ => return None,
                    };
                }
                Some(x)
            }
            _ => None,
        }
    }
}

/// `x op y` on integer constants (`unsigned`: the operands' type is unsigned); `None` for a
/// division by zero or an operator that is not an integer constant operation.
fn int_binop(op: BinOp, x: i64, y: i64, unsigned: bool) -> Option<i64> {
    Some(match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div => {
            if y == 0 {
                return None;
            }
            if unsigned {
                ((x as u64) / (y as u64)) as i64
            } else {
                x.wrapping_div(y)
            }
        }
        BinOp::Rem => {
            if y == 0 {
                return None;
            }
            if unsigned {
                ((x as u64) % (y as u64)) as i64
            } else {
                x.wrapping_rem(y)
            }
        }
        BinOp::Shl => x.wrapping_shl(y as u32),
        BinOp::Shr => {
            if unsigned {
                ((x as u64).wrapping_shr(y as u32)) as i64
            } else {
                x.wrapping_shr(y as u32)
            }
        }
        BinOp::BitAnd => x & y,
        BinOp::BitOr => x | y,
        BinOp::BitXor => x ^ y,
        BinOp::Lt => i64::from(if unsigned {
            (x as u64) < (y as u64)
        } else {
            x < y
        }),
        BinOp::Gt => i64::from(if unsigned {
            (x as u64) > (y as u64)
        } else {
            x > y
        }),
        BinOp::Le => i64::from(if unsigned {
            (x as u64) <= (y as u64)
        } else {
            x <= y
        }),
        BinOp::Ge => i64::from(if unsigned {
            (x as u64) >= (y as u64)
        } else {
            x >= y
        }),
        BinOp::Eq => i64::from(x == y),
        BinOp::Ne => i64::from(x != y),
        BinOp::LogAnd => i64::from(x != 0 && y != 0),
        BinOp::LogOr => i64::from(x != 0 || y != 0),
        BinOp::PtrAdd | BinOp::PtrSub | BinOp::PtrDiff => return None,
    })
}

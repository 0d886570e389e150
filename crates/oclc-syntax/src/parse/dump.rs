//! A compact, indented text form of the AST for snapshot tests and debugging: one node per
//! line, children indented, spans left out so snapshots survive layout changes.

use crate::ast::*;
use std::fmt::Write;

/// Renders a translation unit.
pub fn dump(tu: &TranslationUnit) -> String {
    let mut p = Printer {
        out: String::new(),
        indent: 0,
    };
    for item in &tu.items {
        p.external(item);
    }
    p.out
}

struct Printer {
    out: String,
    indent: usize,
}

impl Printer {
    fn line(&mut self, s: impl AsRef<str>) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s.as_ref());
        self.out.push('\n');
    }

    fn nested(&mut self, f: impl FnOnce(&mut Printer)) {
        self.indent += 1;
        f(self);
        self.indent -= 1;
    }

    fn external(&mut self, item: &ExternalDecl) {
        match item {
            ExternalDecl::FunctionDef(f) => {
                let head = format!(
                    "FunctionDef {} {}",
                    specs(&f.specs),
                    declarator(&f.declarator)
                );
                self.line(head.trim_end());
                self.nested(|p| {
                    for d in &f.kr_decls {
                        p.declaration(d);
                    }
                    p.block(&f.body)
                });
            }
            ExternalDecl::Decl(d) => self.declaration(d),
            ExternalDecl::StaticAssert(s) => self.static_assert(s),
            ExternalDecl::Empty(_) => self.line("Empty"),
            ExternalDecl::Pragma(p) => self.line(pragma(p)),
            ExternalDecl::Dropped(d) => self.line(format!("Dropped {}", declarator(d))),
        }
    }

    fn static_assert(&mut self, s: &StaticAssert) {
        self.line("StaticAssert");
        self.nested(|p| {
            p.expr(&s.cond);
            if let Some(m) = &s.message {
                p.expr(m);
            }
        });
    }

    fn declaration(&mut self, d: &Declaration) {
        self.line(format!("Decl {}", specs(&d.specs)).trim_end());
        self.nested(|p| {
            p.spec_bodies(&d.specs);
            for id in &d.declarators {
                p.line(declarator(&id.declarator));
                if let Some(init) = &id.init {
                    p.nested(|p| p.initializer(init));
                }
            }
        });
    }

    /// Struct and enum bodies, and expressions inside specifiers.
    fn spec_bodies(&mut self, s: &DeclSpecs) {
        for d in &s.items {
            match &d.kind {
                DeclSpecKind::Type(TypeSpec::Record(r)) => {
                    if let Some(body) = &r.body {
                        self.line(format!("{} body", record_name(r)));
                        self.nested(|p| {
                            for m in &body.members {
                                match m {
                                    MemberDecl::Fields(g) => {
                                        p.line(format!("Fields {}", specs(&g.specs)).trim_end());
                                        p.nested(|p| {
                                            p.spec_bodies(&g.specs);
                                            for f in &g.fields {
                                                p.line(declarator(&f.declarator));
                                                if let Some(w) = &f.bit_width {
                                                    p.nested(|p| {
                                                        p.line("BitWidth");
                                                        p.nested(|p| p.expr(w));
                                                    });
                                                }
                                            }
                                        });
                                    }
                                    MemberDecl::StaticAssert(s) => p.static_assert(s),
                                    MemberDecl::Pragma(pr) => p.line(pragma(pr)),
                                }
                            }
                        });
                    }
                }
                DeclSpecKind::Type(TypeSpec::Enum(e)) => {
                    if let Some((_, list)) = &e.body {
                        self.line("enum body");
                        self.nested(|p| {
                            for en in list {
                                p.line(format!("Enumerator {}", en.name.name));
                                if let Some(v) = &en.value {
                                    p.nested(|p| p.expr(v));
                                }
                            }
                        });
                    }
                }
                _ => {}
            }
        }
    }

    fn initializer(&mut self, i: &Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(l) => self.init_list(l),
        }
    }

    fn init_list(&mut self, l: &InitList) {
        self.line("InitList");
        self.nested(|p| {
            for item in &l.items {
                if item.designators.is_empty() {
                    p.initializer(&item.init);
                } else {
                    let mut d = String::from("Designated ");
                    for des in &item.designators {
                        match des {
                            Designator::Field { name, .. } => {
                                let _ = write!(d, ".{}", name.name);
                            }
                            Designator::Index { index, .. } => {
                                let _ = write!(d, "[{}]", inline(index));
                            }
                        }
                    }
                    p.line(d);
                    p.nested(|p| p.initializer(&item.init));
                }
            }
        });
    }

    fn block(&mut self, b: &Block) {
        self.line("Block");
        self.nested(|p| {
            for s in &b.stmts {
                p.stmt(s);
            }
        });
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Compound(b) => self.block(b),
            StmtKind::Decl(d) => self.declaration(d),
            StmtKind::Expr(e) => {
                self.line("ExprStmt");
                self.nested(|p| p.expr(e));
            }
            StmtKind::Null => self.line("Null"),
            StmtKind::If { cond, then, else_ } => {
                self.line("If");
                self.nested(|p| {
                    p.expr(cond);
                    p.stmt(then);
                    if let Some(e) = else_ {
                        p.line("Else");
                        p.nested(|p| p.stmt(e));
                    }
                });
            }
            StmtKind::Switch { cond, body } => {
                self.line("Switch");
                self.nested(|p| {
                    p.expr(cond);
                    p.stmt(body);
                });
            }
            StmtKind::Case { value, body } => {
                self.line(format!("Case {}", inline(value)));
                self.nested(|p| p.stmt(body));
            }
            StmtKind::Default { body } => {
                self.line("Default");
                self.nested(|p| p.stmt(body));
            }
            StmtKind::While { cond, body } => {
                self.line("While");
                self.nested(|p| {
                    p.expr(cond);
                    p.stmt(body);
                });
            }
            StmtKind::DoWhile { body, cond } => {
                self.line("DoWhile");
                self.nested(|p| {
                    p.stmt(body);
                    p.expr(cond);
                });
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.line("For");
                self.nested(|p| {
                    match init.as_deref() {
                        Some(ForInit::Decl(d)) => p.declaration(d),
                        Some(ForInit::Expr(e)) => p.expr(e),
                        None => p.line("<no init>"),
                    }
                    match cond {
                        Some(c) => p.expr(c),
                        None => p.line("<no cond>"),
                    }
                    match step {
                        Some(c) => p.expr(c),
                        None => p.line("<no step>"),
                    }
                    p.stmt(body);
                });
            }
            StmtKind::Break => self.line("Break"),
            StmtKind::Continue => self.line("Continue"),
            StmtKind::Return(e) => {
                self.line("Return");
                if let Some(e) = e {
                    self.nested(|p| p.expr(e));
                }
            }
            StmtKind::Goto(l) => self.line(format!("Goto {}", l.name)),
            StmtKind::Label { name, body } => {
                self.line(format!("Label {}", name.name));
                self.nested(|p| p.stmt(body));
            }
            StmtKind::Attributed { attrs, body } => {
                let a: Vec<String> = attrs.iter().map(attribute).collect();
                self.line(format!("Attributed {}", a.join(" ")));
                self.nested(|p| p.stmt(body));
            }
            StmtKind::StaticAssert(sa) => self.static_assert(sa),
            StmtKind::Pragma(pr) => self.line(pragma(pr)),
            StmtKind::Asm(a) => {
                self.line("Asm");
                self.nested(|p| {
                    for o in a.outputs.iter().chain(&a.inputs) {
                        p.expr(&o.expr);
                    }
                });
            }
            StmtKind::Error => self.line("ErrorStmt"),
        }
    }

    fn expr(&mut self, e: &Expr) {
        self.line(inline(e));
        if let ExprKind::StmtExpr { body, .. } = &e.kind {
            self.nested(|p| p.block(body));
        }
    }
}

fn pragma(p: &PragmaItem) -> String {
    match &p.kind {
        PragmaKind::OpenclExtension { name, enable, .. } => {
            format!(
                "Pragma OPENCL EXTENSION {name} : {}",
                if *enable { "enable" } else { "disable" }
            )
        }
        PragmaKind::OpenclExtensionScope { name, begin, .. } => {
            format!(
                "Pragma OPENCL EXTENSION {name} : {}",
                if *begin { "begin" } else { "end" }
            )
        }
        PragmaKind::Other(s) => format!("Pragma {s}"),
    }
}

fn record_name(r: &RecordSpec) -> String {
    let kw = match r.kind {
        RecordKind::Struct => "struct",
        RecordKind::Union => "union",
    };
    match r.name {
        Some(n) => format!("{kw} {}", n.name),
        None => kw.to_string(),
    }
}

/// Declaration specifiers as one bracketed list: `[static const __global(kw) int]`.
pub(crate) fn specs(s: &DeclSpecs) -> String {
    let parts: Vec<String> = s.items.iter().map(spec).collect();
    format!("[{}]", parts.join(" "))
}

fn spec(d: &DeclSpec) -> String {
    match &d.kind {
        DeclSpecKind::Storage(s) => s.as_str().to_string(),
        DeclSpecKind::Type(t) => type_spec(t),
        DeclSpecKind::Qual(q) => match q {
            TypeQual::Const => "const",
            TypeQual::Volatile => "volatile",
            TypeQual::Restrict => "restrict",
            TypeQual::Atomic => "_Atomic",
        }
        .to_string(),
        DeclSpecKind::AddrSpace(a) => as_qual(a),
        DeclSpecKind::Access(a) => match a {
            AccessQual::ReadOnly => "read_only",
            AccessQual::WriteOnly => "write_only",
            AccessQual::ReadWrite => "read_write",
        }
        .to_string(),
        DeclSpecKind::Func(f) => match f {
            FuncSpec::Kernel => "kernel",
            FuncSpec::Inline => "inline",
            FuncSpec::Noreturn => "_Noreturn",
        }
        .to_string(),
        DeclSpecKind::Pipe => "pipe".to_string(),
        DeclSpecKind::Alignas(a) => format!("_Alignas({})", type_or_expr(a)),
        DeclSpecKind::Attr(a) => attribute(a),
    }
}

fn as_qual(a: &AsQual) -> String {
    let space = match &a.kind {
        AsKind::Global => "global".to_string(),
        AsKind::Local => "local".to_string(),
        AsKind::Constant => "constant".to_string(),
        AsKind::Private => "private".to_string(),
        AsKind::Generic => "generic".to_string(),
        AsKind::GlobalDevice => "global_device".to_string(),
        AsKind::GlobalHost => "global_host".to_string(),
        AsKind::Numbered(e) => format!("address_space({})", inline(e)),
    };
    let form = match a.form {
        AsForm::Keyword => "kw",
        AsForm::GnuAttr => "gnu",
        AsForm::CxxAttr => "cxx",
    };
    format!("AS:{space}({form} {})", a.spelling)
}

fn attribute(a: &Attribute) -> String {
    let mut s = String::from("attr:");
    if let Some(ns) = a.namespace {
        let _ = write!(s, "{}::", ns.name);
    }
    let _ = write!(s, "{}", a.name.name);
    if !a.args.is_empty() {
        let args: Vec<String> = a
            .args
            .iter()
            .map(|x| match x {
                AttrArg::Expr(e) => inline(e),
                AttrArg::Ident(i) => format!("id:{}", i.name),
                AttrArg::Type(t) => format!("type:{}", type_name(t)),
            })
            .collect();
        let _ = write!(s, "({})", args.join(", "));
    }
    s
}

fn type_spec(t: &TypeSpec) -> String {
    match t {
        TypeSpec::Void => "void".into(),
        TypeSpec::Char => "char".into(),
        TypeSpec::Short => "short".into(),
        TypeSpec::Int => "int".into(),
        TypeSpec::Long => "long".into(),
        TypeSpec::Float => "float".into(),
        TypeSpec::Double => "double".into(),
        TypeSpec::Half => "half".into(),
        TypeSpec::Signed => "signed".into(),
        TypeSpec::Unsigned => "unsigned".into(),
        TypeSpec::Bool => "bool".into(),
        TypeSpec::Complex => "_Complex".into(),
        TypeSpec::Builtin(s) => format!("builtin:{s}"),
        TypeSpec::TypedefName(s) => format!("typedef:{s}"),
        TypeSpec::Unknown(s) => format!("unknown:{s}"),
        TypeSpec::Record(r) => {
            let mut s = record_name(r);
            if r.body.is_some() {
                s.push_str("{..}");
            }
            s
        }
        TypeSpec::Enum(e) => {
            let mut s = match e.name {
                Some(n) => format!("enum {}", n.name),
                None => "enum".to_string(),
            };
            if e.body.is_some() {
                s.push_str("{..}");
            }
            s
        }
        TypeSpec::AtomicType(t) => format!("_Atomic({})", type_name(t)),
        TypeSpec::Typeof(a) => format!("typeof({})", type_or_expr(a)),
    }
}

fn type_or_expr(a: &TypeOrExpr) -> String {
    match a {
        TypeOrExpr::Type(t) => type_name(t),
        TypeOrExpr::Expr(e) => inline(e),
    }
}

fn type_name(t: &TypeName) -> String {
    let d = declarator(&t.declarator);
    if d == "<abstract>" {
        specs(&t.specs)
    } else {
        format!("{} {d}", specs(&t.specs))
    }
}

/// A declarator as `name: chunk chunk ...` from the name outward.
pub(crate) fn declarator(d: &Declarator) -> String {
    let mut s = match d.name {
        Some(n) => n.name.to_string(),
        None => "<abstract>".to_string(),
    };
    for c in &d.chunks {
        s.push(' ');
        match &c.kind {
            ChunkKind::Pointer { quals } => {
                s.push('*');
                if !quals.is_empty() {
                    let q: Vec<String> = quals.iter().map(spec).collect();
                    let _ = write!(s, "[{}]", q.join(" "));
                }
            }
            ChunkKind::Array(a) => {
                s.push('[');
                if a.is_static {
                    s.push_str("static ");
                }
                for q in &a.quals {
                    let _ = write!(s, "{} ", spec(q));
                }
                if a.star {
                    s.push('*');
                }
                if let Some(e) = &a.size {
                    s.push_str(&inline(e));
                }
                s.push(']');
            }
            ChunkKind::Function(f) => {
                let mut parts: Vec<String> = f
                    .params
                    .iter()
                    .map(|p| {
                        let d = declarator(&p.declarator);
                        if d == "<abstract>" {
                            specs(&p.specs)
                        } else {
                            format!("{} {d}", specs(&p.specs))
                        }
                    })
                    .collect();
                parts.extend(f.kr_idents.iter().map(|i| format!("kr:{}", i.name)));
                if f.ellipsis.is_some() {
                    parts.push("...".into());
                }
                let _ = write!(s, "fn({})", parts.join(", "));
            }
            ChunkKind::Block => s.push('^'),
            ChunkKind::Paren => s.push_str("()"),
        }
    }
    for a in &d.attrs {
        let _ = write!(s, " {}", spec(a));
    }
    s
}

/// An expression in prefix form: `(+ a (call f 1))`.
pub(crate) fn inline(e: &Expr) -> String {
    match &e.kind {
        ExprKind::IntLit(l) => {
            let mut s = l.value.to_string();
            if l.unsigned {
                s.push('u');
            }
            for _ in 0..l.long {
                s.push('l');
            }
            s
        }
        ExprKind::FloatLit(f) => {
            let sfx = match f.suffix {
                FloatSuffix::None => "",
                FloatSuffix::F => "f",
                FloatSuffix::H => "h",
                FloatSuffix::L => "l",
            };
            format!("{:?}{sfx}", f.value)
        }
        ExprKind::CharLit(c) => format!("char:{}", c.value),
        ExprKind::StrLit(s) => format!("{:?}", String::from_utf8_lossy(&s.value)),
        ExprKind::BoolLit(b) => b.to_string(),
        ExprKind::Ident(s) => s.to_string(),
        ExprKind::FuncName => "__func__".into(),
        ExprKind::Paren(e) => format!("(paren {})", inline(e)),
        ExprKind::ParenList(v) => {
            let parts: Vec<String> = v.iter().map(inline).collect();
            format!("(list {})", parts.join(" "))
        }
        ExprKind::Unary { op, expr, .. } => {
            let name = match op {
                UnaryOp::PostInc => "post++",
                UnaryOp::PostDec => "post--",
                UnaryOp::PreInc => "pre++",
                UnaryOp::PreDec => "pre--",
                o => o.as_str(),
            };
            format!("({name} {})", inline(expr))
        }
        ExprKind::Binary { op, lhs, rhs, .. } => {
            format!("({} {} {})", op.as_str(), inline(lhs), inline(rhs))
        }
        ExprKind::Assign { op, lhs, rhs, .. } => {
            let o = op.map_or("=".to_string(), |o| format!("{}=", o.as_str()));
            format!("({o} {} {})", inline(lhs), inline(rhs))
        }
        ExprKind::Cond {
            cond, then, else_, ..
        } => {
            format!("(? {} {} {})", inline(cond), inline(then), inline(else_))
        }
        ExprKind::Call { callee, args, .. } => {
            let mut s = format!("(call {}", inline(callee));
            for a in args {
                let _ = write!(s, " {}", inline(a));
            }
            s.push(')');
            s
        }
        ExprKind::Index { base, index, .. } => {
            format!("(index {} {})", inline(base), inline(index))
        }
        ExprKind::Member {
            base, arrow, name, ..
        } => {
            format!(
                "({} {} {})",
                if *arrow { "->" } else { "." },
                inline(base),
                name.name
            )
        }
        ExprKind::Cast { ty, expr, .. } => format!("(cast {} {})", type_name(ty), inline(expr)),
        ExprKind::CompoundLit { ty, init } => {
            let items: Vec<String> = init
                .items
                .iter()
                .map(|i| match &i.init {
                    Initializer::Expr(e) => inline(e),
                    Initializer::List(_) => "{..}".to_string(),
                })
                .collect();
            format!("(compound {} {{{}}})", type_name(ty), items.join(", "))
        }
        ExprKind::SizeOf(a) => format!("(sizeof {})", type_or_expr(a)),
        ExprKind::VecStep(a) => format!("(vec_step {})", type_or_expr(a)),
        ExprKind::AlignOf { arg, .. } => format!("(alignof {})", type_or_expr(arg)),
        ExprKind::AsType { expr, ty } => format!("(astype {} {})", inline(expr), type_name(ty)),
        ExprKind::OffsetOf { ty, path } => {
            let parts: Vec<String> = path
                .iter()
                .map(|p| match p {
                    OffsetOfPart::Field { name, .. } => format!(".{}", name.name),
                    OffsetOfPart::Index { index, .. } => format!("[{}]", inline(index)),
                })
                .collect();
            format!("(offsetof {} {})", type_name(ty), parts.concat())
        }
        ExprKind::BitCast { ty, expr } => {
            format!("(bit_cast {} {})", type_name(ty), inline(expr))
        }
        ExprKind::ChooseExpr { cond, then, els } => {
            format!("(choose {} {} {})", inline(cond), inline(then), inline(els))
        }
        ExprKind::StmtExpr { body, .. } => format!("(stmt-expr {} stmts)", body.stmts.len()),
        ExprKind::Error => "<error>".into(),
    }
}

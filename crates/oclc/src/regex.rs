//! A small POSIX-extended regular-expression matcher for `-verify`'s `-re` directives.
//!
//! clang matches `expected-*-re` texts with `llvm::Regex` (POSIX ERE, unanchored search). This
//! covers what its tests use: literals, `.`, bracket classes with ranges and negation, groups,
//! alternation, `*`, `+`, `?`, `{n,m}`, `^`, `$` and backslash escapes. Matching runs a Pike VM,
//! so time is linear in the subject for any pattern (no backtracking blow-up).

/// Most nested groups accepted (parsing recurses once per group).
const MAX_DEPTH: usize = 200;
/// Most VM instructions a pattern may compile to (bounds `{n,m}` expansion).
const MAX_PROGRAM: usize = 100_000;
/// POSIX `RE_DUP_MAX`.
const MAX_REPEAT: u32 = 255;

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Regex {
    prog: Vec<Inst>,
}

#[derive(Clone, Debug)]
enum Inst {
    Byte(u8),
    Any,
    Class {
        ranges: Vec<(u8, u8)>,
        negated: bool,
    },
    Split(usize, usize),
    Jmp(usize),
    AssertStart,
    AssertEnd,
    Match,
}

/// Pattern syntax tree.
#[derive(Clone, Debug)]
enum Node {
    Empty,
    Byte(u8),
    Any,
    Class(Vec<(u8, u8)>, bool),
    Start,
    End,
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>),
}

impl Regex {
    /// Compiles an ERE pattern; the error text follows `regcomp`'s wording where one exists.
    pub fn new(pattern: &str) -> Result<Regex, String> {
        let node = Parser {
            s: pattern.as_bytes(),
            i: 0,
            depth: 0,
        }
        .parse_all()?;
        Regex::from_node(&node)
    }

    /// A pattern that matches `lit` literally followed by nothing else special; used to build
    /// clang's mixed literal/regex directive texts piece by piece.
    pub fn from_parts(parts: &[RegexPart<'_>]) -> Result<Regex, String> {
        let mut seq = Vec::new();
        for p in parts {
            match p {
                RegexPart::Literal(s) => seq.extend(s.bytes().map(Node::Byte)),
                RegexPart::Pattern(s) => seq.push(
                    Parser {
                        s: s.as_bytes(),
                        i: 0,
                        depth: 0,
                    }
                    .parse_all()?,
                ),
            }
        }
        Regex::from_node(&Node::Concat(seq))
    }

    fn from_node(node: &Node) -> Result<Regex, String> {
        let mut prog = Vec::new();
        compile(node, &mut prog)?;
        prog.push(Inst::Match);
        Ok(Regex { prog })
    }

    /// True if the pattern matches anywhere in `subject` (unanchored, like `llvm::Regex::match`).
    pub fn is_match(&self, subject: &str) -> bool {
        let s = subject.as_bytes();
        let n = self.prog.len();
        let mut cur: Vec<usize> = Vec::with_capacity(n);
        let mut next: Vec<usize> = Vec::with_capacity(n);
        let mut seen = vec![usize::MAX; n];
        let mut stack = Vec::new();
        for pos in 0..=s.len() {
            // Unanchored: a new thread starts at every position.
            if self.add(0, pos, s, &mut cur, &mut seen, &mut stack) {
                return true;
            }
            if pos == s.len() {
                break;
            }
            let b = s[pos];
            next.clear();
            for &pc in &cur {
                let ok = match &self.prog[pc] {
                    Inst::Byte(c) => *c == b,
                    Inst::Any => true,
                    Inst::Class { ranges, negated } => {
                        ranges.iter().any(|&(lo, hi)| lo <= b && b <= hi) != *negated
                    }
                    _ => false,
                };
                if ok && self.add(pc + 1, pos + 1, s, &mut next, &mut seen, &mut stack) {
                    return true;
                }
            }
            std::mem::swap(&mut cur, &mut next);
        }
        false
    }

    /// Adds the epsilon closure of `pc` at `pos` to `list`; true when it reaches `Match`.
    fn add(
        &self,
        pc: usize,
        pos: usize,
        s: &[u8],
        list: &mut Vec<usize>,
        seen: &mut [usize],
        stack: &mut Vec<usize>,
    ) -> bool {
        stack.push(pc);
        while let Some(pc) = stack.pop() {
            if pc >= self.prog.len() || seen[pc] == pos {
                continue;
            }
            seen[pc] = pos;
            match &self.prog[pc] {
                Inst::Match => return true,
                Inst::Jmp(t) => stack.push(*t),
                Inst::Split(a, b) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                Inst::AssertStart => {
                    if pos == 0 {
                        stack.push(pc + 1);
                    }
                }
                Inst::AssertEnd => {
                    if pos == s.len() {
                        stack.push(pc + 1);
                    }
                }
                _ => list.push(pc),
            }
        }
        false
    }
}

/// One piece of a `-re` directive text: literal text or an inner `{{...}}` pattern.
#[derive(Clone, Copy, Debug)]
pub enum RegexPart<'a> {
    Literal(&'a str),
    Pattern(&'a str),
}

fn compile(node: &Node, prog: &mut Vec<Inst>) -> Result<(), String> {
    if prog.len() > MAX_PROGRAM {
        return Err("regular expression too big".into());
    }
    match node {
        Node::Empty => {}
        Node::Byte(b) => prog.push(Inst::Byte(*b)),
        Node::Any => prog.push(Inst::Any),
        Node::Class(r, neg) => prog.push(Inst::Class {
            ranges: r.clone(),
            negated: *neg,
        }),
        Node::Start => prog.push(Inst::AssertStart),
        Node::End => prog.push(Inst::AssertEnd),
        Node::Concat(v) => {
            for n in v {
                compile(n, prog)?;
            }
        }
        Node::Alt(v) => {
            // split L1, next; L1: a; jmp end; next: split L2, ... ; last: z
            let mut jumps = Vec::new();
            for (i, n) in v.iter().enumerate() {
                if i + 1 < v.len() {
                    let split = prog.len();
                    prog.push(Inst::Split(split + 1, 0));
                    compile(n, prog)?;
                    jumps.push(prog.len());
                    prog.push(Inst::Jmp(0));
                    let here = prog.len();
                    prog[split] = Inst::Split(split + 1, here);
                } else {
                    compile(n, prog)?;
                }
            }
            let end = prog.len();
            for j in jumps {
                prog[j] = Inst::Jmp(end);
            }
        }
        Node::Repeat(n, min, max) => {
            for _ in 0..*min {
                compile(n, prog)?;
            }
            match max {
                None => {
                    // L: split body, out; body; jmp L
                    let split = prog.len();
                    prog.push(Inst::Split(split + 1, 0));
                    compile(n, prog)?;
                    prog.push(Inst::Jmp(split));
                    let out = prog.len();
                    prog[split] = Inst::Split(split + 1, out);
                }
                Some(max) => {
                    let mut splits = Vec::new();
                    for _ in *min..*max {
                        splits.push(prog.len());
                        prog.push(Inst::Split(prog.len() + 1, 0));
                        compile(n, prog)?;
                    }
                    let out = prog.len();
                    for s in splits {
                        prog[s] = Inst::Split(s + 1, out);
                    }
                }
            }
        }
    }
    Ok(())
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn parse_all(mut self) -> Result<Node, String> {
        let n = self.alt()?;
        if self.i < self.s.len() {
            // Only an unbalanced ')' stops `alt` early.
            return Err("parentheses not balanced".into());
        }
        Ok(n)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn alt(&mut self) -> Result<Node, String> {
        let mut alts = vec![self.concat()?];
        while self.peek() == Some(b'|') {
            self.i += 1;
            alts.push(self.concat()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alt(alts)
        })
    }

    fn concat(&mut self) -> Result<Node, String> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == b'|' || c == b')' {
                break;
            }
            let atom = self.atom()?;
            let atom = self.quantifiers(atom)?;
            items.push(atom);
        }
        Ok(Node::Concat(items))
    }

    fn quantifiers(&mut self, mut atom: Node) -> Result<Node, String> {
        loop {
            let (min, max) = match self.peek() {
                Some(b'*') => (0, None),
                Some(b'+') => (1, None),
                Some(b'?') => (0, Some(1)),
                Some(b'{') if self.s.get(self.i + 1).is_some_and(u8::is_ascii_digit) => {
                    self.i += 1;
                    let min = self.number()?;
                    let max = if self.peek() == Some(b',') {
                        self.i += 1;
                        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                            Some(self.number()?)
                        } else {
                            None
                        }
                    } else {
                        Some(min)
                    };
                    if self.peek() != Some(b'}') {
                        return Err("braces not balanced".into());
                    }
                    if max.is_some_and(|m| m < min) {
                        return Err("invalid repetition count(s)".into());
                    }
                    (min, max)
                }
                _ => return Ok(atom),
            };
            self.i += 1;
            if matches!(atom, Node::Start | Node::End | Node::Empty) {
                return Err("repetition-operator operand invalid".into());
            }
            atom = Node::Repeat(Box::new(atom), min, max);
        }
    }

    fn number(&mut self) -> Result<u32, String> {
        let mut n: u32 = 0;
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            n = n.saturating_mul(10).saturating_add(u32::from(c - b'0'));
            self.i += 1;
        }
        if n > MAX_REPEAT {
            return Err("invalid repetition count(s)".into());
        }
        Ok(n)
    }

    fn atom(&mut self) -> Result<Node, String> {
        let Some(c) = self.peek() else {
            return Ok(Node::Empty);
        };
        self.i += 1;
        Ok(match c {
            b'(' => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err("regular expression too deeply nested".into());
                }
                let inner = self.alt()?;
                self.depth -= 1;
                if self.peek() != Some(b')') {
                    return Err("parentheses not balanced".into());
                }
                self.i += 1;
                inner
            }
            b'.' => Node::Any,
            b'^' => Node::Start,
            b'$' => Node::End,
            b'[' => self.class()?,
            b'\\' => {
                let Some(e) = self.peek() else {
                    return Err("trailing backslash (\\)".into());
                };
                self.i += 1;
                match e {
                    b'd' => Node::Class(vec![(b'0', b'9')], false),
                    b'w' => Node::Class(word_ranges(), false),
                    b's' => Node::Class(space_ranges(), false),
                    b'n' => Node::Byte(b'\n'),
                    b't' => Node::Byte(b'\t'),
                    other => Node::Byte(other),
                }
            }
            b'*' | b'+' | b'?' => return Err("repetition-operator operand invalid".into()),
            other => Node::Byte(other),
        })
    }

    /// A bracket expression; the opening `[` is consumed.
    fn class(&mut self) -> Result<Node, String> {
        let mut negated = false;
        if self.peek() == Some(b'^') {
            negated = true;
            self.i += 1;
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err("brackets ([ ]) not balanced".into());
            };
            if c == b']' && !first {
                self.i += 1;
                break;
            }
            first = false;
            if c == b'[' && self.s.get(self.i + 1) == Some(&b':') {
                let rest = &self.s[self.i + 2..];
                let Some(end) = rest.windows(2).position(|w| w == b":]") else {
                    return Err("brackets ([ ]) not balanced".into());
                };
                let name = &rest[..end];
                ranges.extend(named_class(name)?);
                self.i += 2 + end + 2;
                continue;
            }
            self.i += 1;
            let lo = c;
            if self.peek() == Some(b'-') && self.s.get(self.i + 1).is_some_and(|&n| n != b']') {
                let hi = self.s[self.i + 1];
                self.i += 2;
                if hi < lo {
                    return Err("invalid character range".into());
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Ok(Node::Class(ranges, negated))
    }
}

fn word_ranges() -> Vec<(u8, u8)> {
    vec![(b'a', b'z'), (b'A', b'Z'), (b'0', b'9'), (b'_', b'_')]
}

fn space_ranges() -> Vec<(u8, u8)> {
    vec![(b' ', b' '), (b'\t', b'\r')]
}

fn named_class(name: &[u8]) -> Result<Vec<(u8, u8)>, String> {
    Ok(match name {
        b"alpha" => vec![(b'a', b'z'), (b'A', b'Z')],
        b"digit" => vec![(b'0', b'9')],
        b"alnum" => vec![(b'a', b'z'), (b'A', b'Z'), (b'0', b'9')],
        b"upper" => vec![(b'A', b'Z')],
        b"lower" => vec![(b'a', b'z')],
        b"space" => space_ranges(),
        b"blank" => vec![(b' ', b' '), (b'\t', b'\t')],
        b"punct" => vec![(b'!', b'/'), (b':', b'@'), (b'[', b'`'), (b'{', b'~')],
        b"xdigit" => vec![(b'0', b'9'), (b'a', b'f'), (b'A', b'F')],
        b"print" => vec![(b' ', b'~')],
        b"graph" => vec![(b'!', b'~')],
        b"cntrl" => vec![(0, 31), (127, 127)],
        _ => return Err("invalid character class".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, s: &str) -> bool {
        Regex::new(p).unwrap().is_match(s)
    }

    #[test]
    fn literals_and_search() {
        assert!(m("abc", "xxabcxx"));
        assert!(!m("abd", "xxabcxx"));
        assert!(m("", "anything"));
        assert!(m("^ab", "abc"));
        assert!(!m("^bc", "abc"));
        assert!(m("bc$", "abc"));
        assert!(!m("ab$", "abc"));
    }

    #[test]
    fn alternation_and_groups() {
        assert!(m("__(global|local) int", "x __local int *"));
        assert!(!m("__(global|local) int", "x __private int *"));
        assert!(m("a(b|c)+d", "abcbd"));
        assert!(!m("a(b|c)+d", "ad"));
        assert!(m("(generic|global|constant)", "constant"));
    }

    #[test]
    fn quantifiers_and_classes() {
        assert!(m("a.*z", "a123z"));
        assert!(m("colou?r", "color"));
        assert!(m("colou?r", "colour"));
        assert!(m("[0-9]+ errors", "12 errors"));
        assert!(!m("^[^0-9]+$", "a1"));
        assert!(m("x{2,3}y", "axxy"));
        assert!(!m("^x{2,3}y", "xy"));
        assert!(m("[[:digit:]]", "a5"));
        assert!(m("\\(a\\)", "(a)"));
        assert!(m("a\\.b", "a.b"));
        assert!(!m("a\\.b", "axb"));
    }

    #[test]
    fn errors() {
        assert!(Regex::new("(ab").is_err());
        assert!(Regex::new("ab)").is_err());
        assert!(Regex::new("*a").is_err());
        assert!(Regex::new("[ab").is_err());
        assert!(Regex::new("a{300}").is_err());
        assert!(Regex::new(&"(".repeat(10_000)).is_err());
    }

    #[test]
    fn no_exponential_blowup() {
        let p = "(a*)*(a*)*(a*)*b";
        let s = "a".repeat(5000);
        assert!(!m(p, &s));
    }

    #[test]
    fn mixed_parts() {
        let r = Regex::from_parts(&[
            RegexPart::Literal("'__"),
            RegexPart::Pattern("private|generic"),
            RegexPart::Literal(" int *' (x)"),
        ])
        .unwrap();
        assert!(r.is_match("type '__generic int *' (x) here"));
        assert!(!r.is_match("type '__generic int *' x here"));
    }
}

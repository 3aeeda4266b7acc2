//! A small backtracking regular-expression matcher for gogui-regress expectations (we have no
//! regex crate). It supports what GTP regression files use:
//! - literal characters and `\` escapes of any character (`\+`, `\.`, `\(`, `\\`, ...);
//! - `.` (any character, newlines included, as with Java's DOTALL);
//! - classes `[abc]`, ranges `[a-h]`, negated classes `[^a-h]`, and `\d \D \s \S \w \W`;
//! - groups `( )` and `(?: )`, alternatives `a|b`;
//! - quantifiers `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (greedy, with backtracking);
//! - anchors `^` and `$` at line starts and ends (MULTILINE, as gogui-regress uses).
//!
//! Matching is always of the whole text ([`Regex::full_match`]), case-sensitive.
#![allow(dead_code)]

/// A parsed pattern.
#[derive(Clone, Debug)]
pub struct Regex {
    root: Alternatives,
}

type Alternatives = Vec<Sequence>;
type Sequence = Vec<Piece>;

#[derive(Clone, Debug)]
struct Piece {
    atom: Atom,
    min: usize,
    max: usize,
}

#[derive(Clone, Debug)]
enum Atom {
    Char(char),
    Any,
    Class {
        items: Vec<ClassItem>,
        negated: bool,
    },
    Group(Alternatives),
    LineStart,
    LineEnd,
}

#[derive(Clone, Debug)]
enum ClassItem {
    Range(char, char),
    Digit(bool),
    Space(bool),
    Word(bool),
}

impl ClassItem {
    fn matches(&self, c: char) -> bool {
        match *self {
            ClassItem::Range(a, b) => a <= c && c <= b,
            ClassItem::Digit(yes) => c.is_ascii_digit() == yes,
            ClassItem::Space(yes) => c.is_whitespace() == yes,
            ClassItem::Word(yes) => (c.is_alphanumeric() || c == '_') == yes,
        }
    }
}

const UNBOUNDED: usize = usize::MAX;

impl Regex {
    /// Parses `pattern`; errors say what is unsupported or malformed.
    pub fn new(pattern: &str) -> Result<Regex, String> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut parser = Parser { chars, pos: 0 };
        let root = parser.alternatives()?;
        if parser.pos != parser.chars.len() {
            return Err(format!("unbalanced ')' in pattern '{pattern}'"));
        }
        Ok(Regex { root })
    }

    /// Whether the pattern matches all of `text`.
    pub fn full_match(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let m = Matcher { text: &chars };
        m.alternatives(&self.root, 0, &mut |end| end == chars.len())
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn next(&mut self) -> Result<char, String> {
        let c = self
            .peek()
            .ok_or_else(|| "pattern ends too early".to_string())?;
        self.pos += 1;
        Ok(c)
    }

    fn alternatives(&mut self) -> Result<Alternatives, String> {
        let mut alts = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.pos += 1;
            alts.push(self.sequence()?);
        }
        Ok(alts)
    }

    fn sequence(&mut self) -> Result<Sequence, String> {
        let mut seq = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let (min, max) = self.quantifier()?;
            seq.push(Piece { atom, min, max });
        }
        Ok(seq)
    }

    fn atom(&mut self) -> Result<Atom, String> {
        match self.next()? {
            '.' => Ok(Atom::Any),
            '^' => Ok(Atom::LineStart),
            '$' => Ok(Atom::LineEnd),
            '(' => {
                if self.chars[self.pos..].starts_with(&['?', ':']) {
                    self.pos += 2;
                }
                let inner = self.alternatives()?;
                if self.next()? != ')' {
                    return Err("missing ')'".into());
                }
                Ok(Atom::Group(inner))
            }
            '[' => self.class(),
            '\\' => Ok(match self.next()? {
                'd' => class_of(ClassItem::Digit(true)),
                'D' => class_of(ClassItem::Digit(false)),
                's' => class_of(ClassItem::Space(true)),
                'S' => class_of(ClassItem::Space(false)),
                'w' => class_of(ClassItem::Word(true)),
                'W' => class_of(ClassItem::Word(false)),
                'n' => Atom::Char('\n'),
                't' => Atom::Char('\t'),
                c => Atom::Char(c),
            }),
            c @ ('*' | '+' | '?' | '{') => Err(format!("nothing to repeat before '{c}'")),
            c => Ok(Atom::Char(c)),
        }
    }

    fn class(&mut self) -> Result<Atom, String> {
        let negated = self.peek() == Some('^');
        if negated {
            self.pos += 1;
        }
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let c = self.next()?;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                match self.next()? {
                    'd' => {
                        items.push(ClassItem::Digit(true));
                        continue;
                    }
                    's' => {
                        items.push(ClassItem::Space(true));
                        continue;
                    }
                    'w' => {
                        items.push(ClassItem::Word(true));
                        continue;
                    }
                    'n' => '\n',
                    e => e,
                }
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&n| n != ']') {
                self.pos += 1;
                let hi = match self.next()? {
                    '\\' => self.next()?,
                    h => h,
                };
                if hi < lo {
                    return Err(format!("bad range {lo}-{hi}"));
                }
                items.push(ClassItem::Range(lo, hi));
            } else {
                items.push(ClassItem::Range(lo, lo));
            }
        }
        Ok(Atom::Class { items, negated })
    }

    fn quantifier(&mut self) -> Result<(usize, usize), String> {
        let q = match self.peek() {
            Some('*') => (0, UNBOUNDED),
            Some('+') => (1, UNBOUNDED),
            Some('?') => (0, 1),
            Some('{') => return self.braces(),
            _ => return Ok((1, 1)),
        };
        self.pos += 1;
        Ok(q)
    }

    fn braces(&mut self) -> Result<(usize, usize), String> {
        self.pos += 1;
        let number = |p: &mut Parser| -> Option<usize> {
            let start = p.pos;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.pos += 1;
            }
            p.chars[start..p.pos]
                .iter()
                .collect::<String>()
                .parse()
                .ok()
        };
        let min = number(self).ok_or("bad {n,m} quantifier")?;
        let max = if self.peek() == Some(',') {
            self.pos += 1;
            number(self).unwrap_or(UNBOUNDED)
        } else {
            min
        };
        if self.next()? != '}' || max < min {
            return Err("bad {n,m} quantifier".into());
        }
        Ok((min, max))
    }
}

fn class_of(item: ClassItem) -> Atom {
    Atom::Class {
        items: vec![item],
        negated: false,
    }
}

struct Matcher<'t> {
    text: &'t [char],
}

impl Matcher<'_> {
    /// Tries each alternative at `pos`; `k` decides whether the rest of the pattern matches
    /// from where an alternative ended.
    fn alternatives(
        &self,
        alts: &Alternatives,
        pos: usize,
        k: &mut dyn FnMut(usize) -> bool,
    ) -> bool {
        alts.iter().any(|seq| self.sequence(seq, 0, pos, k))
    }

    fn sequence(
        &self,
        seq: &Sequence,
        i: usize,
        pos: usize,
        k: &mut dyn FnMut(usize) -> bool,
    ) -> bool {
        match seq.get(i) {
            None => k(pos),
            Some(piece) => self.repeat(piece, 0, pos, &mut |p| self.sequence(seq, i + 1, p, k)),
        }
    }

    /// Greedy repetition: one more copy of the atom first, then stopping here.
    fn repeat(
        &self,
        piece: &Piece,
        count: usize,
        pos: usize,
        k: &mut dyn FnMut(usize) -> bool,
    ) -> bool {
        if count < piece.max {
            let more = self.atom(&piece.atom, pos, &mut |p| {
                // A copy that consumes nothing would repeat forever: allow it only while
                // the minimum count is not reached yet.
                (p != pos || count < piece.min) && self.repeat(piece, count + 1, p, k)
            });
            if more {
                return true;
            }
        }
        count >= piece.min && k(pos)
    }

    fn atom(&self, atom: &Atom, pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
        let here = self.text.get(pos).copied();
        match atom {
            Atom::Char(c) => here == Some(*c) && k(pos + 1),
            Atom::Any => here.is_some() && k(pos + 1),
            Atom::Class { items, negated } => {
                here.is_some_and(|c| items.iter().any(|it| it.matches(c)) != *negated) && k(pos + 1)
            }
            Atom::Group(alts) => self.alternatives(alts, pos, k),
            Atom::LineStart => (pos == 0 || self.text[pos - 1] == '\n') && k(pos),
            Atom::LineEnd => (here.is_none() || here == Some('\n')) && k(pos),
        }
    }
}

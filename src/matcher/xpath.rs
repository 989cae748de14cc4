//! An XPath 1.0 validator: the lexical structure and the expression grammar of XPath 1.0
//! (W3C REC-xpath-19991116 §3, with the §3.7 disambiguation rules). The whole string is lexed
//! first, so an unexpected character is reported before any grammar failure.

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A character no token begins with.
    Char(char),
    /// A literal with no closing quote (the text from its quote on).
    Literal(String),
    /// Tokens outside the grammar.
    Parse,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok {
    LParen,
    RParen,
    LBracket,
    RBracket,
    Dot,
    DotDot,
    At,
    Comma,
    ColonColon,
    Slash,
    SlashSlash,
    Pipe,
    Plus,
    Minus,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    /// `*` as a name test.
    Star,
    Multiply,
    Or,
    And,
    Mod,
    Div,
    Literal,
    Number,
    Variable,
    NameTest,
    /// `node`, `text`, `comment`.
    NodeType,
    ProcessingInstruction,
    FunctionName,
    AxisName,
    /// A name the disambiguation rules admit nowhere (an unknown axis, a name where an
    /// operator goes).
    Bad,
}

const AXES: &[&str] = &[
    "ancestor",
    "ancestor-or-self",
    "attribute",
    "child",
    "descendant",
    "descendant-or-self",
    "following",
    "following-sibling",
    "namespace",
    "parent",
    "preceding",
    "preceding-sibling",
    "self",
];

fn name_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn name_char(c: char) -> bool {
    name_start(c)
        || c.is_numeric()
        || matches!(c, '.' | '-' | '\u{B7}')
        || ('\u{300}'..='\u{36F}').contains(&c)
        || c == '\u{203F}'
        || c == '\u{2040}'
}

fn is_operator(t: Tok) -> bool {
    use Tok::*;
    matches!(t, Or | And | Mod | Div | Multiply | Slash | SlashSlash | Pipe | Plus | Minus | Eq | Neq | Lt | Le | Gt | Ge)
}

/// §3.7: after a token that is not `@ :: ( [ ,` or an operator, `*` multiplies and a name
/// is an operator name.
fn operator_position(prev: Option<Tok>) -> bool {
    match prev {
        None => false,
        Some(t) => !(matches!(t, Tok::At | Tok::ColonColon | Tok::LParen | Tok::LBracket | Tok::Comma) || is_operator(t)),
    }
}

fn lex(s: &str) -> Result<Vec<Tok>, Error> {
    let c: Vec<char> = s.chars().collect();
    let n = c.len();
    let at = |i: usize| c.get(i).copied();
    let mut toks: Vec<Tok> = Vec::new();
    let mut i = 0;
    while i < n {
        let ch = c[i];
        if matches!(ch, ' ' | '\t' | '\r' | '\n') {
            i += 1;
            continue;
        }
        let prev = toks.last().copied();
        let (tok, len) = match ch {
            '(' => (Tok::LParen, 1),
            ')' => (Tok::RParen, 1),
            '[' => (Tok::LBracket, 1),
            ']' => (Tok::RBracket, 1),
            '@' => (Tok::At, 1),
            ',' => (Tok::Comma, 1),
            '|' => (Tok::Pipe, 1),
            '+' => (Tok::Plus, 1),
            '-' => (Tok::Minus, 1),
            '=' => (Tok::Eq, 1),
            '/' if at(i + 1) == Some('/') => (Tok::SlashSlash, 2),
            '/' => (Tok::Slash, 1),
            '!' if at(i + 1) == Some('=') => (Tok::Neq, 2),
            '<' if at(i + 1) == Some('=') => (Tok::Le, 2),
            '<' => (Tok::Lt, 1),
            '>' if at(i + 1) == Some('=') => (Tok::Ge, 2),
            '>' => (Tok::Gt, 1),
            ':' if at(i + 1) == Some(':') => (Tok::ColonColon, 2),
            '.' if at(i + 1) == Some('.') => (Tok::DotDot, 2),
            '.' if at(i + 1).is_some_and(|d| d.is_ascii_digit()) => {
                let mut j = i + 1;
                while at(j).is_some_and(|d| d.is_ascii_digit()) {
                    j += 1;
                }
                (Tok::Number, j - i)
            }
            '.' => (Tok::Dot, 1),
            '"' | '\'' => match c[i + 1..].iter().position(|&q| q == ch) {
                Some(k) => (Tok::Literal, k + 2),
                None => return Err(Error::Literal(c[i..].iter().collect())),
            },
            d if d.is_ascii_digit() => {
                let mut j = i;
                while at(j).is_some_and(|d| d.is_ascii_digit()) {
                    j += 1;
                }
                if at(j) == Some('.') {
                    j += 1;
                    while at(j).is_some_and(|d| d.is_ascii_digit()) {
                        j += 1;
                    }
                }
                (Tok::Number, j - i)
            }
            '*' => (if operator_position(prev) { Tok::Multiply } else { Tok::Star }, 1),
            '$' => {
                if !at(i + 1).is_some_and(name_start) {
                    return Err(Error::Char('$'));
                }
                let (len, _, _) = qname(&c, i + 1);
                (Tok::Variable, len + 1)
            }
            s if name_start(s) => {
                let (len, prefixed, wildcard) = qname(&c, i);
                let name: String = c[i..i + len].iter().collect();
                let tok = if operator_position(prev) {
                    match name.as_str() {
                        "or" => Tok::Or,
                        "and" => Tok::And,
                        "mod" => Tok::Mod,
                        "div" => Tok::Div,
                        _ => Tok::Bad,
                    }
                } else {
                    let mut j = i + len;
                    while at(j).is_some_and(|w| matches!(w, ' ' | '\t' | '\r' | '\n')) {
                        j += 1;
                    }
                    if wildcard {
                        Tok::NameTest
                    } else if at(j) == Some('(') {
                        match name.as_str() {
                            "node" | "text" | "comment" => Tok::NodeType,
                            "processing-instruction" => Tok::ProcessingInstruction,
                            _ => Tok::FunctionName,
                        }
                    } else if at(j) == Some(':') && at(j + 1) == Some(':') {
                        if !prefixed && AXES.contains(&name.as_str()) {
                            Tok::AxisName
                        } else {
                            Tok::Bad
                        }
                    } else {
                        Tok::NameTest
                    }
                };
                (tok, len)
            }
            other => return Err(Error::Char(other)),
        };
        toks.push(tok);
        i += len;
    }
    Ok(toks)
}

/// The length of the QName (or `NCName:*`) at `i`; whether it is prefixed; whether it is
/// the `NCName:*` wildcard.
fn qname(c: &[char], i: usize) -> (usize, bool, bool) {
    let mut j = i + 1;
    while j < c.len() && name_char(c[j]) {
        j += 1;
    }
    if j + 1 < c.len() && c[j] == ':' {
        if c[j + 1] == '*' {
            return (j + 2 - i, true, true);
        }
        if name_start(c[j + 1]) {
            let mut k = j + 2;
            while k < c.len() && name_char(c[k]) {
                k += 1;
            }
            return (k - i, true, false);
        }
    }
    (j - i, false, false)
}

/// The deepest nesting of predicates, parentheses and arguments read.
const MAX_DEPTH: u32 = 128;

struct Parser {
    toks: Vec<Tok>,
    at: usize,
    depth: u32,
}

type R = Result<(), Error>;

impl Parser {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.at).copied()
    }
    fn eat(&mut self, t: Tok) -> bool {
        if self.peek() == Some(t) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: Tok) -> R {
        if self.eat(t) {
            Ok(())
        } else {
            Err(Error::Parse)
        }
    }
    fn eat_any(&mut self, ts: &[Tok]) -> bool {
        match self.peek() {
            Some(t) if ts.contains(&t) => {
                self.at += 1;
                true
            }
            _ => false,
        }
    }
    fn binary(&mut self, ops: &[Tok], next: fn(&mut Parser) -> R) -> R {
        next(self)?;
        while self.eat_any(ops) {
            next(self)?;
        }
        Ok(())
    }
    fn expr(&mut self) -> R {
        // Nesting is bounded so a hostile selector cannot exhaust the stack.
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::Parse);
        }
        let r = self.binary(&[Tok::Or], Parser::and);
        self.depth -= 1;
        r
    }
    fn and(&mut self) -> R {
        self.binary(&[Tok::And], Parser::equality)
    }
    fn equality(&mut self) -> R {
        self.binary(&[Tok::Eq, Tok::Neq], Parser::relational)
    }
    fn relational(&mut self) -> R {
        self.binary(&[Tok::Lt, Tok::Le, Tok::Gt, Tok::Ge], Parser::additive)
    }
    fn additive(&mut self) -> R {
        self.binary(&[Tok::Plus, Tok::Minus], Parser::multiplicative)
    }
    fn multiplicative(&mut self) -> R {
        self.binary(&[Tok::Multiply, Tok::Div, Tok::Mod], Parser::unary)
    }
    fn unary(&mut self) -> R {
        while self.eat(Tok::Minus) {}
        self.binary(&[Tok::Pipe], Parser::path)
    }
    fn starts_step(t: Option<Tok>) -> bool {
        matches!(
            t,
            Some(Tok::Dot | Tok::DotDot | Tok::At | Tok::AxisName | Tok::Star | Tok::NameTest | Tok::NodeType | Tok::ProcessingInstruction)
        )
    }
    fn path(&mut self) -> R {
        match self.peek() {
            Some(Tok::Slash) => {
                self.at += 1;
                if Self::starts_step(self.peek()) {
                    self.relative()?;
                }
                Ok(())
            }
            Some(Tok::SlashSlash) => {
                self.at += 1;
                self.relative()
            }
            t if Self::starts_step(t) => self.relative(),
            _ => {
                self.primary()?;
                while self.peek() == Some(Tok::LBracket) {
                    self.predicate()?;
                }
                if self.eat_any(&[Tok::Slash, Tok::SlashSlash]) {
                    self.relative()?;
                }
                Ok(())
            }
        }
    }
    fn relative(&mut self) -> R {
        self.step()?;
        while self.eat_any(&[Tok::Slash, Tok::SlashSlash]) {
            self.step()?;
        }
        Ok(())
    }
    fn step(&mut self) -> R {
        if self.eat_any(&[Tok::Dot, Tok::DotDot]) {
            return Ok(());
        }
        if self.eat(Tok::AxisName) {
            self.expect(Tok::ColonColon)?;
        } else {
            self.eat(Tok::At);
        }
        match self.peek() {
            Some(Tok::Star | Tok::NameTest) => self.at += 1,
            Some(Tok::NodeType) => {
                self.at += 1;
                self.expect(Tok::LParen)?;
                self.expect(Tok::RParen)?;
            }
            Some(Tok::ProcessingInstruction) => {
                self.at += 1;
                self.expect(Tok::LParen)?;
                self.eat(Tok::Literal);
                self.expect(Tok::RParen)?;
            }
            _ => return Err(Error::Parse),
        }
        while self.peek() == Some(Tok::LBracket) {
            self.predicate()?;
        }
        Ok(())
    }
    fn predicate(&mut self) -> R {
        self.expect(Tok::LBracket)?;
        self.expr()?;
        self.expect(Tok::RBracket)
    }
    fn primary(&mut self) -> R {
        match self.peek() {
            Some(Tok::Variable | Tok::Literal | Tok::Number) => {
                self.at += 1;
                Ok(())
            }
            Some(Tok::LParen) => {
                self.at += 1;
                self.expr()?;
                self.expect(Tok::RParen)
            }
            Some(Tok::FunctionName) => {
                self.at += 1;
                self.expect(Tok::LParen)?;
                if self.eat(Tok::RParen) {
                    return Ok(());
                }
                self.expr()?;
                while self.eat(Tok::Comma) {
                    self.expr()?;
                }
                self.expect(Tok::RParen)
            }
            _ => Err(Error::Parse),
        }
    }
}

/// Validates one XPath 1.0 expression.
pub fn check(s: &str) -> Result<(), Error> {
    let toks = lex(s)?;
    let mut p = Parser { toks, at: 0, depth: 0 };
    p.expr()?;
    if p.at == p.toks.len() {
        Ok(())
    } else {
        Err(Error::Parse)
    }
}

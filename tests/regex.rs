//! Rowkey's regular expressions (`kit::regex`, written in Rowkey) against regex-lite 0.1, which
//! HBase's regex comparator, the shell's `list` and cbt's filters used before and which is now
//! only this test's oracle: seeded patterns (valid and not) and texts (ASCII, Latin-1,
//! multi-byte UTF-8, line ends), where both must accept or refuse each pattern with the same
//! message and agree on every match; then each construct by hand, the limits, and hostile
//! patterns that must answer at once.
use std::time::{Duration, Instant};

use rowkey::kit::regex::Regex;
use rowkey::kit::seeded::Gen;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// regex-lite's answer: the message if refused.
fn oracle(pattern: &str, dot_all: bool) -> Result<regex_lite::Regex, String> {
    regex_lite::RegexBuilder::new(pattern)
        .dot_matches_new_line(dot_all)
        .build()
        .map_err(|e| e.to_string())
}

fn ours(pattern: &str, dot_all: bool) -> Result<Regex, String> {
    let compiled = if dot_all {
        Regex::dot_matches_new_line(pattern)
    } else {
        Regex::new(pattern)
    };
    compiled.map_err(|e| e.to_string())
}

/// Pieces patterns are made of: most valid, some refused by themselves, others refused only
/// where they land (a repetition first, a group left open).
const PIECES: &[&str] = &[
    "a",
    "b",
    "c",
    "A",
    "B",
    "x",
    "_",
    "1",
    "0",
    " ",
    "-",
    ",",
    "é",
    "ÿ",
    "☃",
    "\n",
    ".",
    "^",
    "$",
    "|",
    "|",
    "(",
    "(",
    ")",
    ")",
    "(?:",
    "(?i)",
    "(?i:",
    "(?-i)",
    "(?m)",
    "(?s)",
    "(?-s)",
    "(?U)",
    "(?R)",
    "(?x)",
    "(?u)",
    "(?m:",
    "(?is:",
    "(?ii)",
    "(?--i)",
    "(?i-)",
    "(?)",
    "(?",
    "(?z)",
    "(?P<n>",
    "(?<m>",
    "(?P<>",
    "(?P<1>",
    "(?P<n",
    "(?=",
    "(?!",
    "(?<=",
    "*",
    "+",
    "?",
    "*?",
    "+?",
    "??",
    "{2}",
    "{0}",
    "{1}",
    "{0,1}",
    "{1,}",
    "{1,3}",
    "{3,1}",
    "{,2}",
    "{2,}?",
    "{",
    "}",
    "{a}",
    "{ 2 }",
    "{4294967296}",
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    "\\b",
    "\\B",
    "\\A",
    "\\z",
    "\\<",
    "\\>",
    "\\b{start}",
    "\\b{end}",
    "\\b{start-half}",
    "\\b{end-half}",
    "\\b{foo}",
    "\\b{",
    "\\n",
    "\\t",
    "\\r",
    "\\a",
    "\\f",
    "\\v",
    "\\.",
    "\\*",
    "\\\\",
    "\\-",
    "\\ ",
    "\\#",
    "\\%",
    "\\e",
    "\\1",
    "\\pL",
    "\\x41",
    "\\x61",
    "\\xe9",
    "\\x{263A}",
    "\\x{}",
    "\\x{110000}",
    "\\x4",
    "\\xZZ",
    "\\u00e9",
    "\\U0001F600",
    "\\u{D800}",
    "\\",
    "[abc]",
    "[^abc]",
    "[a-c]",
    "[^a-c]",
    "[a-]",
    "[-a]",
    "[]a]",
    "[^]a]",
    "[a-z0-9_]",
    "[[:alpha:]]",
    "[[:^digit:]]",
    "[[:space:]x]",
    "[[:foo:]]",
    "[[:word:]]",
    "[[:punct:]]",
    "[\\d]",
    "[\\W]",
    "[\\x41-\\x5a]",
    "[a-\\d]",
    "[z-a]",
    "[\\b]",
    "[&&]",
    "[a&&b]",
    "[a--b]",
    "[a~~b]",
    "[[a]]",
    "[",
    "[^",
    "[a",
    "[a-",
    "[é-ÿ]",
    "[^\\n]",
    "[.]",
    "[ -]",
    "# c\n",
    "[A-z]",
    "[\\t-\\r]",
];

/// A pattern of 1 to 7 pieces.
fn pattern(g: &mut Gen) -> String {
    let n = 1 + g.below(7);
    (0..n)
        .map(|_| PIECES[g.below(PIECES.len() as u64) as usize])
        .collect()
}

/// A pattern with its groups balanced: more of them compile.
fn balanced(g: &mut Gen, depth: u32) -> String {
    const ATOMS: &[&str] = &[
        "a",
        "b",
        "ab",
        ".",
        "\\w",
        "\\d",
        "[a-c]",
        "[^b]",
        "é",
        "☃",
        "^",
        "$",
        "\\b",
        "\\B",
        "(?i)A",
        "[[:upper:]]",
        "\\s",
        "\\n",
        "x",
    ];
    const OPENS: &[&str] = &["(", "(?:", "(?i:", "(?m:", "(?s:", "(?-s:", "(?P<g>"];
    const REPEATS: &[&str] = &[
        "", "", "", "*", "+", "?", "*?", "{2}", "{1,2}", "{0,}", "{2,}",
    ];
    let n = 1 + g.below(3);
    let mut out = String::new();
    for i in 0..n {
        if i > 0 && g.below(4) == 0 {
            out.push('|');
        }
        if depth < 3 && g.below(3) == 0 {
            let open = OPENS[g.below(OPENS.len() as u64) as usize];
            // A named group once only, so that the name is not a duplicate.
            let open = if open == "(?P<g>" && out.contains("(?P<g>") {
                "("
            } else {
                open
            };
            out.push_str(open);
            out.push_str(&balanced(g, depth + 1));
            out.push(')');
        } else {
            out.push_str(ATOMS[g.below(ATOMS.len() as u64) as usize]);
        }
        out.push_str(REPEATS[g.below(REPEATS.len() as u64) as usize]);
    }
    out
}

/// A balanced pattern with one character inserted or taken out: mostly near misses.
fn mutated(g: &mut Gen) -> String {
    const INSERTS: &[char] = &[
        '(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '\\', '^', '$', '-', ':', ',', '<', '>',
        '1', 'P', '#', ' ', '&', '~', '=', '!',
    ];
    let mut chars: Vec<char> = balanced(g, 0).chars().collect();
    let at = g.below(chars.len() as u64 + 1) as usize;
    if g.below(2) == 0 || at == chars.len() {
        chars.insert(at, INSERTS[g.below(INSERTS.len() as u64) as usize]);
    } else {
        chars.remove(at);
    }
    chars.into_iter().collect()
}

/// 0 to 19 characters drawn from the syntax's own: any order, most of them refused.
fn soup(g: &mut Gen) -> String {
    const CHARS: &[char] = &[
        '(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '\\', '^', '$', '-', ':', ',', '<', '>',
        '.', '#', ' ', '&', '~', '=', '!', 'a', 'b', 'x', 'u', 'P', 'i', 's', 'm', 'U', 'd', 'w',
        'B', 'z', 'A', '0', '1', '2', 'f', '\n', 'é',
    ];
    let n = g.below(20);
    (0..n)
        .map(|_| CHARS[g.below(CHARS.len() as u64) as usize])
        .collect()
}

/// A text of 0 to 11 characters: ASCII, Latin-1, multi-byte and line ends.
fn text(g: &mut Gen) -> String {
    const CHARS: &[char] = &[
        'a', 'b', 'c', 'A', 'B', 'x', '_', '1', ' ', '-', '\n', '\r', 'é', 'ÿ', 'É', '☃', '😀',
        '\t', '.',
    ];
    let n = g.below(12);
    (0..n)
        .map(|_| CHARS[g.below(CHARS.len() as u64) as usize])
        .collect()
}

/// Seeded bytes read as Latin-1 by the comparator (and by regex-lite through the text they
/// make).
fn latin1_bytes(g: &mut Gen) -> Vec<u8> {
    const BYTES: &[u8] = b"abcAB_1 -\n\r\xe9\xff\xc9\x00\x80\xa0";
    let n = g.below(12);
    (0..n)
        .map(|_| BYTES[g.below(BYTES.len() as u64) as usize])
        .collect()
}

#[derive(Default, Debug, PartialEq)]
struct Tally {
    /// The distinct messages of the refused patterns.
    messages: std::collections::BTreeSet<String>,
    patterns: usize,
    refused: usize,
    pairs: usize,
    matched: usize,
}

fn compare(pattern: &str, dot_all: bool, g: &mut Gen, tally: &mut Tally) {
    tally.patterns += 1;
    let (theirs, mine) = (oracle(pattern, dot_all), ours(pattern, dot_all));
    let (theirs, mine) = match (theirs, mine) {
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "messages differ for {pattern:?}");
            tally.refused += 1;
            tally.messages.insert(a);
            return;
        }
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => panic!(
            "{pattern:?} (dot_all {dot_all}): regex-lite {:?}, Rowkey {:?}",
            a.err(),
            b.err()
        ),
    };
    for _ in 0..6 {
        let t = text(g);
        let expected = theirs.is_match(&t);
        assert_eq!(mine.is_match(&t), expected, "{pattern:?} on {t:?}");
        tally.pairs += 1;
        tally.matched += usize::from(expected);
    }
    for _ in 0..2 {
        let bytes = latin1_bytes(g);
        let latin1: String = bytes.iter().map(|&b| char::from(b)).collect();
        let expected = theirs.is_match(&latin1);
        assert_eq!(
            mine.is_match_latin1(&bytes),
            expected,
            "{pattern:?} on {bytes:?}"
        );
        tally.pairs += 1;
        tally.matched += usize::from(expected);
    }
}

#[test]
fn agrees_with_regex_lite_on_seeded_patterns_and_texts() {
    let mut g = Gen::new(0x5eed_4e9e);
    let mut tally = Tally::default();
    for i in 0..20_000 {
        let p = match i % 4 {
            0 => pattern(&mut g),
            1 => balanced(&mut g, 0),
            2 => mutated(&mut g),
            _ => soup(&mut g),
        };
        compare(&p, i % 5 == 0, &mut g, &mut tally);
    }
    println!("{} messages: {:#?}", tally.messages.len(), tally.messages);
    println!(
        "{} patterns, {} refused, {} pairs, {} matched",
        tally.patterns, tally.refused, tally.pairs, tally.matched
    );
    assert_eq!(
        (tally.patterns, tally.refused, tally.pairs, tally.matched),
        (20_000, 8_798, 89_616, 38_232)
    );
    assert_eq!(tally.messages.len(), 47);
}

/// `pattern` must match (or not) each text as said, in Rowkey as in regex-lite.
fn check(pattern: &str, cases: &[(&str, bool)]) -> TestResult {
    let (theirs, mine) = (oracle(pattern, false)?, Regex::new(pattern)?);
    for &(t, expected) in cases {
        assert_eq!(
            theirs.is_match(t),
            expected,
            "regex-lite: {pattern:?} on {t:?}"
        );
        assert_eq!(mine.is_match(t), expected, "Rowkey: {pattern:?} on {t:?}");
    }
    Ok(())
}

#[test]
fn literals_dot_and_escapes() -> TestResult {
    check("", &[("", true), ("abc", true)])?;
    check("abc", &[("xabcx", true), ("ab", false), ("ABC", false)])?;
    check(
        "a.c",
        &[("abc", true), ("a\nc", false), ("a☃c", true), ("ac", false)],
    )?;
    check("(?s)a.c", &[("a\nc", true)])?;
    check("(?s:a.)c(?-s).", &[("a\ncx", true), ("a\nc\n", false)])?;
    check(
        r"\x41\u00e9\x{2603}\U0001F600",
        &[("Aé☃😀", true), ("aé☃😀", false)],
    )?;
    check(
        r"\n\t\r\a\f\v",
        &[("\n\t\r\x07\x0C\x0B", true), ("\n\t\r", false)],
    )?;
    check(
        r"\.\*\\\-\ \#\%",
        &[(".*\\- #%", true), ("a*\\- #%", false)],
    )?;
    check("é+", &[("ééé", true), ("e", false)])?;
    // The `s` flag from the start, as HBase's comparator compiles.
    let dot_all = Regex::dot_matches_new_line("a.c")?;
    assert!(dot_all.is_match("a\nc"));
    let plain = Regex::new("a.c")?;
    assert!(!plain.is_match("a\nc"));
    Ok(())
}

#[test]
fn classes() -> TestResult {
    check("[abc]", &[("xbx", true), ("xyz", false)])?;
    check(
        "^[^abc]$",
        &[("d", true), ("a", false), ("\n", true), ("☃", true)],
    )?;
    check("^[a-c-]+$", &[("a-c", true), ("d", false)])?;
    check("^[]a]+$", &[("]a]", true), ("b", false)])?;
    check("^[^]a]$", &[("b", true), ("]", false)])?;
    check(
        "^[[:alpha:]]+$",
        &[("abcXYZ", true), ("ab1", false), ("é", false)],
    )?;
    check("^[[:^digit:]x]+$", &[("abx", true), ("a1", false)])?;
    check(
        "^[[:space:]]+$",
        &[(" \t\n\r\x0B\x0C", true), ("\u{A0}", false)],
    )?;
    check("^[[:punct:]]+$", &[("!/:@[`{~", true), ("a", false)])?;
    check(r"^\d+$", &[("0123456789", true), ("١", false)])?;
    check(r"^\D+$", &[("ab", true), ("a1", false)])?;
    check(r"^\w+$", &[("a_Z9", true), ("é", false)])?;
    check(r"^\W+$", &[("é-", true), ("_", false)])?;
    check(r"^\s+$", &[(" \t\n", true), ("\u{2003}", false)])?;
    check(r"^\S+$", &[("ab", true), ("a b", false)])?;
    check(r"^[\d\s]+$", &[("1 2", true), ("1a", false)])?;
    check(r"^[\x41-\x43]+$", &[("ABC", true), ("D", false)])?;
    check("^[é-ÿ]$", &[("ö", true), ("e", false)])?;
    check("^[A-z]+$", &[("Az[_", true), ("{", false)])?;
    Ok(())
}

#[test]
fn flags() -> TestResult {
    check("(?i)abc", &[("ABC", true), ("aBc", true), ("abd", false)])?;
    // ASCII case folding only, as regex-lite folds.
    check("(?i)é", &[("é", true), ("É", false)])?;
    check("(?i)[a-c]+", &[("CAB", true), ("D", false)])?;
    check("(?i)[^a]", &[("A", false), ("b", true)])?;
    check("a(?i:b)c", &[("aBc", true), ("aBC", false)])?;
    check("(?i)a(?-i)b", &[("Ab", true), ("AB", false)])?;
    check("(a(?i)b)c", &[("aBc", true), ("aBC", false)])?;
    check("(?U)a+", &[("aaa", true)])?;
    check("a+?b*?c??", &[("ab", true), ("ac", true), ("c", false)])?;
    check(
        "(?x) a b # a comment\n c",
        &[("abc", true), ("a b c", false)],
    )?;
    check("(?x)[a b]", &[("b", true), (" ", false)])?;
    check("(?x)a{ 2 , 3 }", &[("aa", true), ("a", false)])?;
    check("(?-u:\\b)x", &[("x", true)])?;
    check("(?R)^b$", &[("b", true)])?;
    check(
        "(?Rm)^b$",
        &[("a\r\nb\r\nc", true), ("a\rb\rc", true), ("ab", false)],
    )?;
    Ok(())
}

#[test]
fn anchors_and_line_ends() -> TestResult {
    check("^b", &[("b", true), ("ab", false), ("a\nb", false)])?;
    check("a$", &[("a", true), ("a\n", false), ("a\nb", false)])?;
    check("(?m)^b", &[("a\nb", true), ("ab", false)])?;
    check("(?m)a$", &[("a\nb", true), ("ab", false)])?;
    check("(?m)^$", &[("", true), ("a\n\nb", true), ("a\nb", false)])?;
    check("^$", &[("", true), ("\n", false)])?;
    check(r"(?m)\Ab", &[("a\nb", false), ("b", true)])?;
    check(r"(?m)a\z", &[("a\nb", false), ("ba", true)])?;
    check(
        r"\bfoo\b",
        &[("a foo b", true), ("afoo", false), ("foo_", false)],
    )?;
    check(r"\Boo\B", &[("fooo", true), ("oo", false)])?;
    check(
        r"\<foo\>",
        &[("foo", true), ("xfoo", false), ("foox", false)],
    )?;
    check(r"\b{start}x", &[("x", true), ("ax", false)])?;
    check(r"x\b{end}", &[("x.", true), ("xa", false)])?;
    check(
        r"\b{start-half}x\b{end-half}",
        &[("x", true), ("-x-", true), ("ax", false)],
    )?;
    // A word boundary is ASCII's: é is no word character.
    check(r"\bx", &[("éx", true), ("_x", false)])?;
    check(r"a\b{2}", &[("a", true)])?;
    Ok(())
}

#[test]
fn groups_alternation_and_repetition() -> TestResult {
    check("^(ab|cd)+$", &[("abcdab", true), ("abc", false)])?;
    check("^(?:a|)$", &[("", true), ("a", true), ("b", false)])?;
    check(
        "^(?P<y>\\d{4})-(?<m>\\d{2})$",
        &[("2026-11", true), ("26-11", false)],
    )?;
    check("^a{3}$", &[("aaa", true), ("aa", false), ("aaaa", false)])?;
    check("^a{2,}$", &[("aa", true), ("aaaaa", true), ("a", false)])?;
    check("^a{1,3}$", &[("aaa", true), ("aaaa", false), ("", false)])?;
    check("^a{0}$", &[("", true), ("a", false)])?;
    check("^(a?){3}$", &[("", true), ("aaa", true), ("aaaa", false)])?;
    check("^(a*)*$", &[("", true), ("aaa", true), ("b", false)])?;
    check("^(a|b)*?c$", &[("ababc", true), ("abab", false)])?;
    check("^a{2}?$", &[("aa", true)])?;
    check("^(?:^a)+$", &[("a", true), ("aa", false)])?;
    check("x*", &[("", true), ("yyy", true)])?;
    Ok(())
}

/// Each refusal regex-lite words, with a pattern that draws it; the seeded test meets the
/// others.
#[test]
fn refusals_keep_regex_lite_messages() -> TestResult {
    let nested = "(".repeat(52) + &")".repeat(52);
    let starred = format!("a{}", "*".repeat(51));
    let cases: &[(&str, &str)] = &[
        (&nested, "pattern has too much nesting"),
        (&starred, "pattern has too much nesting"),
        (
            "(?P<",
            "expected capture group name, but got end of pattern",
        ),
        (
            "(?P<n",
            "expected end of capture group name, but got end of pattern",
        ),
        (
            "(?i",
            "expected ':' or ')' to end inline flags, but got end of pattern",
        ),
        (
            r"\x{12",
            "expected hexadecimal number, but saw end of pattern before closing brace",
        ),
        (
            r"\x{1g}",
            "expected hexadecimal number in braces, but got non-hex digit",
        ),
        (
            r"\x",
            "expected hexadecimal number, but saw end of pattern first",
        ),
        (r"\uD800", "got invalid fixed length hexadecimal number"),
        (
            "[]",
            "character class begins with literal ']' but has no closing bracket",
        ),
        (
            "[a-",
            "non-empty character class has no closing bracket after dash",
        ),
        ("[[:foo:]]", "nested character classes are not supported"),
        ("a{1000}{1000}", "compiled regex exceeded size limit"),
        (
            "*",
            "uncounted repetition operator must be applied to a sub-expression",
        ),
        ("a)", "found closing ')' without matching '('"),
        ("(", "found open group without closing ')'"),
        ("[z-a]", "invalid range in character class"),
        (r"\p{L}", "Unicode character classes are not supported"),
        (r"(a)\1", "backreferences are not supported"),
        ("(?=a)", "look-around is not supported"),
    ];
    for &(pattern, message) in cases {
        assert_eq!(
            oracle(pattern, false).err().as_deref(),
            Some(message),
            "{pattern}"
        );
        assert_eq!(
            ours(pattern, false).err().as_deref(),
            Some(message),
            "{pattern}"
        );
    }
    Ok(())
}

/// The limits are regex-lite's: groups 50 deep, a tree 50 tall, a program of 10 MiB counted
/// as regex-lite counts it on a 64-bit machine (`a{n}` is n + 3 states of 32 bytes and one
/// group of 16).
#[test]
fn limits_are_regex_lite_limits() -> TestResult {
    for n in [49, 50, 51] {
        let groups = "(".repeat(n) + "a" + &")".repeat(n);
        let stars = format!("a{}", "*".repeat(n));
        let counts = format!("a{}", "{1,2}".repeat(n));
        for p in [groups, stars, counts] {
            assert_eq!(oracle(&p, false).is_ok(), ours(&p, false).is_ok(), "{p}");
        }
    }
    assert!(ours(&"(".repeat(50).to_string(), false).is_err());
    assert!(ours(&format!("{}a{}", "(".repeat(50), ")".repeat(50)), false).is_ok());
    assert!(ours(&format!("{}a{}", "(".repeat(51), ")".repeat(51)), false).is_err());
    for n in [327_675, 327_676, 327_677] {
        let p = format!("a{{{n}}}");
        let (theirs, mine) = (oracle(&p, false).is_ok(), ours(&p, false).is_ok());
        assert_eq!(theirs, mine, "{p}");
        assert_eq!(mine, n <= 327_676, "{p}");
    }
    for p in [
        "[a-z]{100000}",
        "(?:[a-z]{1000}|x){100}",
        "(?P<name>a){100000}",
        "(a|b|c){80000}",
        "((a{100}){100}){100}",
        "(?:a{0,1000}){300}",
    ] {
        assert_eq!(oracle(p, false).is_ok(), ours(p, false).is_ok(), "{p}");
    }
    Ok(())
}

/// Patterns that make a backtracking matcher take exponential time answer at once: the
/// automaton runs once over the text.
#[test]
fn hostile_patterns_answer_at_once() -> TestResult {
    let a = "a".repeat(10_000);
    let started = Instant::now();
    assert!(!Regex::new("(a*)*b")?.is_match(&a));
    assert!(!Regex::new("^(a|aa)+$")?.is_match(&(a.clone() + "b")));
    assert!(!Regex::new("(a+)+$")?.is_match(&(a.clone() + "!")));
    assert!(Regex::new("((a{1,10}){1,10}){1,10}$")?.is_match(&a));
    assert!(!Regex::new("(?:a?){30}a{30}b")?.is_match(&a));
    assert!(Regex::new("(x+x+)+y|a$")?.is_match(&a));
    // Far under a second natively; generous for a loaded machine, and far below what
    // backtracking would take (2^10000 ways to split the text).
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    Ok(())
}

/// A compiled regex cloned matches as the original (a scan clones its filter for each region).
#[test]
fn clones_match_alike() -> TestResult {
    let re = Regex::dot_matches_new_line("^a.b$")?;
    let copy = re.clone();
    assert!(copy.is_match("a\nb") && re.is_match("a\nb"));
    assert!(!copy.is_match("a\nbb"));
    assert!(copy.is_match_latin1(b"a\xffb"));
    Ok(())
}

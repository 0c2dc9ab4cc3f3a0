//! Splitting a command line into arguments as a POSIX shell does, plus bash's `$'...'`
//! (ANSI-C quoting, which cbt's own help uses for binary row keys). Arguments are bytes:
//! `$'\xff'` is one byte that is not UTF-8.

use super::Error;

/// The words of `line`: blanks separate words; `'...'` keeps everything literally; `"..."`
/// keeps everything but `\"`, `\\`, `\$` and `` \` ``; `$'...'` reads C escapes; an unquoted
/// backslash keeps the next character; an unquoted `#` at the start of a word begins a comment;
/// an unquoted operator (`;`, `&`, `|`, `<`, `>`, `(`, `)`) is an error, since a shell would end
/// the command there.
pub fn split(line: &str) -> Result<Vec<Vec<u8>>, Error> {
    let b = line.as_bytes();
    let mut words = Vec::new();
    let mut word: Vec<u8> = Vec::new();
    let mut in_word = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                i += 1;
            }
            b'#' if !in_word => break,
            b'\'' => {
                let end = find(b, i + 1, b'\'').ok_or(Error::Unterminated('\''))?;
                word.extend_from_slice(&b[i + 1..end]);
                in_word = true;
                i = end + 1;
            }
            b'"' => {
                i += 1;
                loop {
                    match b.get(i) {
                        None => return Err(Error::Unterminated('"')),
                        Some(b'"') => break,
                        Some(b'\\') if matches!(b.get(i + 1), Some(b'"' | b'\\' | b'$' | b'`')) => {
                            word.push(b[i + 1]);
                            i += 2;
                        }
                        Some(&other) => {
                            word.push(other);
                            i += 1;
                        }
                    }
                }
                in_word = true;
                i += 1;
            }
            b'$' if b.get(i + 1) == Some(&b'\'') => {
                let start = word.len();
                i = ansi_c(b, i + 2, &mut word)?;
                // An argument cannot hold a NUL byte: as in bash, `\x00` ends what the quotes
                // contribute.
                if let Some(nul) = word[start..].iter().position(|&c| c == 0) {
                    word.truncate(start + nul);
                }
                in_word = true;
            }
            b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')' => {
                let doubled = matches!(c, b'&' | b'|' | b'<' | b'>') && b.get(i + 1) == Some(&c);
                let op = &line[i..i + 1 + usize::from(doubled)];
                return Err(Error::Operator(op.to_string()));
            }
            b'\\' => {
                if let Some(&next) = b.get(i + 1) {
                    word.push(next);
                }
                in_word = true;
                i += 2;
            }
            other => {
                word.push(other);
                in_word = true;
                i += 1;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

fn find(b: &[u8], from: usize, what: u8) -> Option<usize> {
    b.get(from..)?
        .iter()
        .position(|&c| c == what)
        .map(|p| p + from)
}

/// Reads a `$'...'` body from `i` (just past the opening quote) into `word`; returns the index
/// past the closing quote.
fn ansi_c(b: &[u8], mut i: usize, word: &mut Vec<u8>) -> Result<usize, Error> {
    loop {
        let Some(&c) = b.get(i) else {
            return Err(Error::Unterminated('\''));
        };
        match c {
            b'\'' => return Ok(i + 1),
            b'\\' => {
                let Some(&e) = b.get(i + 1) else {
                    return Err(Error::Unterminated('\''));
                };
                i += 2;
                match e {
                    b'a' => word.push(7),
                    b'b' => word.push(8),
                    b'e' | b'E' => word.push(27),
                    b'f' => word.push(12),
                    b'n' => word.push(b'\n'),
                    b'r' => word.push(b'\r'),
                    b't' => word.push(b'\t'),
                    b'v' => word.push(11),
                    b'\\' | b'\'' | b'"' | b'?' => word.push(e),
                    b'x' => {
                        let (value, used) = digits(b, i, 16, 2);
                        if used == 0 {
                            word.extend_from_slice(b"\\x");
                        } else {
                            word.push(value as u8);
                        }
                        i += used;
                    }
                    b'0'..=b'7' => {
                        let (value, used) = digits(b, i - 1, 8, 3);
                        word.push((value & 0xff) as u8);
                        i += used - 1;
                    }
                    other => {
                        word.push(b'\\');
                        word.push(other);
                    }
                }
            }
            other => {
                word.push(other);
                i += 1;
            }
        }
    }
}

/// Up to `max` digits in `radix` from `i`: their value and how many there were.
fn digits(b: &[u8], i: usize, radix: u32, max: usize) -> (u32, usize) {
    let mut value = 0;
    let mut used = 0;
    while used < max {
        match b.get(i + used).and_then(|&c| (c as char).to_digit(radix)) {
            Some(d) => {
                value = value * radix + d;
                used += 1;
            }
            None => break,
        }
    }
    (value, used)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_and_escapes() -> Result<(), Error> {
        assert_eq!(
            split(r#"set t 'a b' "c\"d" e\ f $'\x41\101\n' g#h # comment"#)?,
            vec![
                b"set".to_vec(),
                b"t".to_vec(),
                b"a b".to_vec(),
                b"c\"d".to_vec(),
                b"e f".to_vec(),
                b"AA\n".to_vec(),
                b"g#h".to_vec(),
            ]
        );
        assert_eq!(split("x $'\\224'")?, vec![b"x".to_vec(), vec![0o224]]);
        assert_eq!(split("$'a\\x00b'c")?, vec![b"ac".to_vec()]);
        assert!(split("x 'open").is_err());
        Ok(())
    }

    /// A shell ends the command at an unquoted operator (`setgcpolicy t f maxage=1d ||
    /// maxversions=2` gives cbt only `maxage=1d`); quoted, the operator is cbt's.
    #[test]
    fn an_unquoted_shell_operator_is_an_error_and_a_quoted_one_is_text() -> Result<(), Error> {
        for (line, op) in [
            ("setgcpolicy t f maxage=1d || maxversions=2", "||"),
            ("setgcpolicy t f maxage=1d && maxversions=2", "&&"),
            ("set t r f:a=x;y@1000", ";"),
            ("read t regex=(a)", "("),
            ("read t > out.txt", ">"),
            ("read t | head", "|"),
        ] {
            assert_eq!(split(line), Err(Error::Operator(op.to_string())), "{line}");
        }
        assert_eq!(
            split(r#"setgcpolicy t f "maxage=1d || maxversions=2" 'a;b' c\&d"#)?,
            vec![
                b"setgcpolicy".to_vec(),
                b"t".to_vec(),
                b"f".to_vec(),
                b"maxage=1d || maxversions=2".to_vec(),
                b"a;b".to_vec(),
                b"c&d".to_vec(),
            ]
        );
        Ok(())
    }
}

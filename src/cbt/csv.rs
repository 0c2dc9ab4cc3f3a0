//! Comma-separated records as Go's `encoding/csv` reads them: fields split at commas, a field
//! in double quotes may hold commas, newlines and doubled quotes, blank lines are skipped, and
//! a carriage return before a newline is dropped.

/// Every record of `data`; an unterminated quote is an error.
pub fn read_all(data: &[u8]) -> Result<Vec<Vec<String>>, String> {
    Ok(read_lines(data)?.into_iter().map(|(_, r)| r).collect())
}

/// Every record of `data` with the line it starts on.
pub fn read_lines(data: &[u8]) -> Result<Vec<(usize, Vec<String>)>, String> {
    let text = String::from_utf8_lossy(data);
    let chars: Vec<char> = text.chars().collect();
    let mut records = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < chars.len() {
        if chars[i] == '\n' || (chars[i] == '\r' && chars.get(i + 1) == Some(&'\n')) {
            i += if chars[i] == '\r' { 2 } else { 1 };
            line += 1;
            continue;
        }
        let mut record = Vec::new();
        let start_line = line;
        loop {
            let mut field = String::new();
            if chars.get(i) == Some(&'"') {
                i += 1;
                loop {
                    match chars.get(i) {
                        None => {
                            return Err(format!(
                                "record on line {start_line}; parse error on line {line}, column {}: extraneous or missing \" in quoted-field",
                                0
                            ))
                        }
                        Some('"') if chars.get(i + 1) == Some(&'"') => {
                            field.push('"');
                            i += 2;
                        }
                        Some('"') => {
                            i += 1;
                            break;
                        }
                        Some(&c) => {
                            if c == '\n' {
                                line += 1;
                            }
                            field.push(c);
                            i += 1;
                        }
                    }
                }
                while let Some(&c) = chars.get(i) {
                    if c == ',' || c == '\n' || c == '\r' {
                        break;
                    }
                    field.push(c);
                    i += 1;
                }
            } else {
                while let Some(&c) = chars.get(i) {
                    if c == ',' || c == '\n' || (c == '\r' && chars.get(i + 1) == Some(&'\n')) {
                        break;
                    }
                    field.push(c);
                    i += 1;
                }
            }
            record.push(field);
            match chars.get(i) {
                Some(',') => i += 1,
                Some('\r') => {
                    i += 2;
                    line += 1;
                    break;
                }
                Some('\n') => {
                    i += 1;
                    line += 1;
                    break;
                }
                _ => break,
            }
        }
        records.push((start_line, record));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields() -> Result<(), String> {
        assert_eq!(
            read_all(b"\"a,b\",c\n\nx,\"y\"\"z\"\r\n")?,
            vec![
                vec!["a,b".to_string(), "c".into()],
                vec!["x".into(), "y\"z".into()]
            ]
        );
        assert_eq!(read_all(b"")?, Vec::<Vec<String>>::new());
        Ok(())
    }
}

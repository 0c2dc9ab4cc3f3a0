//! Bytes as HBase prints them: printable ASCII as is, every other byte (backslash included)
//! as `\xHH`.

/// HBase's `Bytes.toStringBinary`.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn to_printable(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if (b' '..=b'~').contains(&b) && b != b'\\' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// HBase's `Bytes.toBytesBinary`: the inverse of [`to_printable`]; a `\x` not followed by two
/// hex digits stays as written.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn from_printable(text: &str) -> Vec<u8> {
    to_bytes_binary(text.as_bytes())
}

/// [`from_printable`] over bytes: `\xHH` (two hex digits, either case) is one byte, every
/// other byte stays.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn to_bytes_binary(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'x') {
            let hex = b
                .get(i + 2..i + 4)
                .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(v) = hex {
                out.push(v);
                i += 4;
                continue;
            }
        }
        out.extend(b.get(i));
        i += 1;
    }
    out
}

/// The smallest key greater than every key starting with `prefix` (empty when none is:
/// all bytes 0xFF), as HBase computes a prefix scan's stop row.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn prefix_stop(prefix: &[u8]) -> Vec<u8> {
    let mut stop = prefix.to_vec();
    while let Some(last) = stop.pop() {
        if last < 0xFF {
            stop.push(last + 1);
            return stop;
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_backslash_and_non_printables() {
        assert_eq!(to_printable(b"a\\b\x00\xff~ "), "a\\x5Cb\\x00\\xFF~ ");
        assert_eq!(
            from_printable("a\\x5Cb\\x00\\xFF~ "),
            b"a\\b\x00\xff~ ".to_vec()
        );
    }

    #[test]
    fn a_sign_is_not_a_hex_digit() {
        assert_eq!(to_bytes_binary(b"\\x+1\\x4a"), b"\\x+1J".to_vec());
    }

    #[test]
    fn prefix_stop_carries_over_ff() {
        assert_eq!(prefix_stop(b"ab"), b"ac".to_vec());
        assert_eq!(prefix_stop(b"a\xff"), b"b".to_vec());
        assert_eq!(prefix_stop(b"\xff"), Vec::<u8>::new());
    }
}

/// A key's first eight bytes as a big-endian number, zeros after a shorter key: of two keys in
/// order, the first's head is at most the second's, so unequal heads order their keys. Most
/// steps of a search through keys then compare two numbers and read nothing else (WebAssembly's
/// byte comparison goes a byte at a time).
#[inline]
pub fn head(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    b[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(b)
}

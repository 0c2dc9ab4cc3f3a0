//! Base64 (RFC 4648): the standard alphabet with `=` padding, which stored history keys use,
//! and the URL-safe alphabet without padding, which share links use. Decoding is strict: a
//! character outside the alphabet, a length no encoding has, misplaced padding or stray bits
//! in the last character are errors, as a damaged text should be.

use thiserror::Error;

/// Which of the two encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alphabet {
    /// `A–Z a–z 0–9 + /`, padded with `=` to a multiple of four characters.
    Standard,
    /// `A–Z a–z 0–9 - _`, unpadded.
    UrlNoPad,
}

/// Why a text is not base64.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Base64Error {
    /// A character outside the alphabet (or padding where there can be none), at this byte.
    #[error("invalid character at byte {0}")]
    Character(usize),
    /// A length no encoding produces.
    #[error("invalid length {0}")]
    Length(usize),
    /// The last character carries bits no encoding sets.
    #[error("invalid last character at byte {0}")]
    LastBits(usize),
}

impl Alphabet {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn symbols(self) -> &'static [u8; 64] {
        match self {
            Alphabet::Standard => {
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            }
            Alphabet::UrlNoPad => {
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            }
        }
    }

    /// Each byte's value in the alphabet, [`INVALID`] for a byte outside it.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn values(self) -> &'static [u8; 256] {
        match self {
            Alphabet::Standard => &STANDARD_VALUES,
            Alphabet::UrlNoPad => &URL_VALUES,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn value(self, c: u8) -> Option<u32> {
        self.value_const(c).map(u32::from)
    }
}

/// A byte outside the alphabet, in [`Alphabet::values`].
const INVALID: u8 = 0xFF;

/// [`Alphabet::value`] of every byte, as a table.
const fn values_of(alphabet: Alphabet) -> [u8; 256] {
    let mut table = [INVALID; 256];
    let mut c = 0;
    while c < 256 {
        // `Option::map` is not const.
        if let Some(v) = alphabet.value_const(c as u8) {
            table[c] = v;
        }
        c += 1;
    }
    table
}

static STANDARD_VALUES: [u8; 256] = values_of(Alphabet::Standard);
static URL_VALUES: [u8; 256] = values_of(Alphabet::UrlNoPad);

impl Alphabet {
    /// [`Alphabet::value`] for the table.
    #[cfg_attr(rowkey_cold, optimize(size))]
    const fn value_const(self, c: u8) -> Option<u8> {
        let standard = matches!(self, Alphabet::Standard);
        match c {
            b'A'..=b'Z' => Some(c - b'A'),
            b'a'..=b'z' => Some(c - b'a' + 26),
            b'0'..=b'9' => Some(c - b'0' + 52),
            b'+' if standard => Some(62),
            b'/' if standard => Some(63),
            b'-' if !standard => Some(62),
            b'_' if !standard => Some(63),
            _ => None,
        }
    }
}

/// `bytes` in base64.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn encode(bytes: &[u8], alphabet: Alphabet) -> String {
    let symbols = alphabet.symbols();
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(char::from(symbols[((n >> (18 - 6 * i)) & 63) as usize]));
            } else if alphabet == Alphabet::Standard {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes a base64 `text` encodes.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn decode(text: &str, alphabet: Alphabet) -> Result<Vec<u8>, Base64Error> {
    let b = text.as_bytes();
    let body = match alphabet {
        Alphabet::Standard => {
            if !b.len().is_multiple_of(4) {
                return Err(Base64Error::Length(b.len()));
            }
            let pad = b.iter().rev().take(2).take_while(|&&c| c == b'=').count();
            &b[..b.len() - pad]
        }
        Alphabet::UrlNoPad => b,
    };
    if body.len() % 4 == 1 {
        return Err(Base64Error::Length(b.len()));
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    // Whole groups of four characters through the table (a stored history decodes hundreds of
    // thousands of keys on a reload); the last, shorter group below.
    let values = alphabet.values();
    let whole = body.chunks_exact(4);
    let rest = whole.remainder();
    let groups = body.len() / 4;
    for (c, chunk) in whole.enumerate() {
        let v = [
            values[usize::from(chunk[0])],
            values[usize::from(chunk[1])],
            values[usize::from(chunk[2])],
            values[usize::from(chunk[3])],
        ];
        if let Some(i) = v.iter().position(|&x| x == INVALID) {
            return Err(Base64Error::Character(c * 4 + i));
        }
        let n = (u32::from(v[0]) << 18)
            | (u32::from(v[1]) << 12)
            | (u32::from(v[2]) << 6)
            | u32::from(v[3]);
        out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
    }
    for (c, chunk) in rest.chunks(4).enumerate() {
        let c = c + groups;
        let mut n = 0u32;
        for (i, &ch) in chunk.iter().enumerate() {
            let v = alphabet
                .value(ch)
                .ok_or(Base64Error::Character(c * 4 + i))?;
            n |= v << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let whole = chunk.len() - 1;
        // The bits of the last character past the bytes it completes must be zero.
        if n & (0x00FF_FFFF >> (8 * whole)) != 0 {
            return Err(Base64Error::LastBits(c * 4 + chunk.len() - 1));
        }
        out.extend_from_slice(&bytes[..whole]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4648's test vectors, section 10.
    #[test]
    fn rfc_4648_vectors() -> Result<(), Base64Error> {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes(), Alphabet::Standard), coded);
            assert_eq!(decode(coded, Alphabet::Standard)?, plain.as_bytes());
            let bare = coded.trim_end_matches('=');
            assert_eq!(encode(plain.as_bytes(), Alphabet::UrlNoPad), bare);
            assert_eq!(decode(bare, Alphabet::UrlNoPad)?, plain.as_bytes());
        }
        Ok(())
    }

    /// Every byte value, through both alphabets, at every length up to 40.
    #[test]
    fn round_trips() -> Result<(), Base64Error> {
        let data: Vec<u8> = (0..=255u8).rev().collect();
        for len in 0..40 {
            for alphabet in [Alphabet::Standard, Alphabet::UrlNoPad] {
                let part = &data[len..len * 2];
                assert_eq!(decode(&encode(part, alphabet), alphabet)?, part);
            }
        }
        assert_eq!(encode(&[0xFB, 0xFF], Alphabet::Standard), "+/8=");
        assert_eq!(encode(&[0xFB, 0xFF], Alphabet::UrlNoPad), "-_8");
        Ok(())
    }

    #[test]
    fn damaged_texts_are_errors() {
        use Base64Error::*;
        assert_eq!(decode("Zm9", Alphabet::Standard), Err(Length(3)));
        assert_eq!(decode("Zm9v=A", Alphabet::UrlNoPad), Err(Character(4)));
        assert_eq!(decode("Z", Alphabet::UrlNoPad), Err(Length(1)));
        assert_eq!(decode("Zm-v", Alphabet::Standard), Err(Character(2)));
        assert_eq!(decode("Zm+v", Alphabet::UrlNoPad), Err(Character(2)));
        assert_eq!(decode("Zh==", Alphabet::Standard), Err(LastBits(1)));
        assert_eq!(decode("Zm9=", Alphabet::Standard), Err(LastBits(2)));
        assert_eq!(decode("Zm=v", Alphabet::Standard), Err(Character(2)));
    }
}

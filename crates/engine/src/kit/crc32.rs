//! CRC-32 (IEEE 802.3, the checksum of zlib, PNG and gzip), which guards every saved blob and
//! every block of a sorted run.
//!
//! Slicing by sixteen: sixteen tables of 256 entries let the loop fold sixteen bytes per step.
//! The tables are built the first time a checksum is taken (a few microseconds) rather than
//! stored in the program, where their 16 KB would not compress and would weigh as much in the
//! download as all the help text.

use std::sync::OnceLock;

/// The reflected IEEE polynomial.
const POLY: u32 = 0xEDB8_8320;

type Tables = [[u32; 256]; 16];

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Box<Tables>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Box::new([[0u32; 256]; 16]);
        for (n, entry) in t[0].iter_mut().enumerate() {
            let mut c = n as u32;
            for _ in 0..8 {
                c = if c & 1 == 1 { (c >> 1) ^ POLY } else { c >> 1 };
            }
            *entry = c;
        }
        for k in 1..16 {
            for n in 0..256 {
                let prev = t[k - 1][n];
                t[k][n] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
            }
        }
        t
    })
}

/// The CRC-32 of `bytes`.
pub fn hash(bytes: &[u8]) -> u32 {
    let t = tables();
    let mut crc = !0u32;
    let mut chunks = bytes.chunks_exact(16);
    for c in &mut chunks {
        let word = u32::from_le_bytes([c[0], c[1], c[2], c[3]]) ^ crc;
        crc = t[15][(word & 0xFF) as usize]
            ^ t[14][((word >> 8) & 0xFF) as usize]
            ^ t[13][((word >> 16) & 0xFF) as usize]
            ^ t[12][(word >> 24) as usize]
            ^ t[11][c[4] as usize]
            ^ t[10][c[5] as usize]
            ^ t[9][c[6] as usize]
            ^ t[8][c[7] as usize]
            ^ t[7][c[8] as usize]
            ^ t[6][c[9] as usize]
            ^ t[5][c[10] as usize]
            ^ t[4][c[11] as usize]
            ^ t[3][c[12] as usize]
            ^ t[2][c[13] as usize]
            ^ t[1][c[14] as usize]
            ^ t[0][c[15] as usize];
    }
    for &b in chunks.remainder() {
        crc = (crc >> 8) ^ t[0][((crc ^ u32::from(b)) & 0xFF) as usize];
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check values of the CRC catalogue (CRC-32/ISO-HDLC) and of zlib's `crc32`.
    #[test]
    fn known_checksums() {
        assert_eq!(hash(b""), 0);
        assert_eq!(hash(b"123456789"), 0xCBF4_3926);
        assert_eq!(
            hash(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
        assert_eq!(hash(&[0u8; 32]), 0x190A_55AD);
    }

    /// The sixteen-byte loop agrees with the byte-at-a-time definition at every length and
    /// alignment of the remainder.
    #[test]
    fn sliced_equals_bytewise() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 7 + i / 3) as u8).collect();
        for len in 0..data.len() {
            let mut crc = !0u32;
            for &b in &data[..len] {
                crc ^= u32::from(b);
                for _ in 0..8 {
                    crc = if crc & 1 == 1 {
                        (crc >> 1) ^ POLY
                    } else {
                        crc >> 1
                    };
                }
            }
            assert_eq!(hash(&data[..len]), !crc, "length {len}");
        }
    }
}

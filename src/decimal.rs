//! Decimal text read as a float, as `f64::from_str` reads it, without carrying its tables.
//!
//! Rust's parse is correctly rounded through a 10 KB table of powers of five that does not
//! compress; the page needs no second copy of what the browser has. Numbers of up to 19
//! significant digits whose power of ten is within 10^±22 (nearly every number people type or
//! Rowkey saves) are read exactly by Clinger's fast path: the digits as an integer below 2^53
//! and the power of ten are both exact floats, so one multiplication or division rounds once,
//! correctly. Any other number goes to a correctly rounded reader: JavaScript's `parseFloat` in
//! the browser, Rust's own natively.

/// Powers of ten that are exact as floats.
const EXACT_POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `text` as a float, or `None` where `f64::from_str` refuses it: an optional sign, then
/// digits with an optional fraction (`1`, `1.5`, `.5`, `5.`) and an optional exponent
/// (`2e-3`), or `inf`, `infinity` or `nan` in any case.
pub fn parse_f64(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let word = |w: &str| body.eq_ignore_ascii_case(w);
    let magnitude = if word("inf") || word("infinity") {
        f64::INFINITY
    } else if word("nan") {
        f64::NAN
    } else {
        fast_path(body)?.or_else(|| correctly_rounded(body))?
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// `Some(Some(x))` for a number the fast path reads, `Some(None)` for a well-formed number it
/// leaves to the full reader, `None` for text that is not a number.
fn fast_path(body: &str) -> Option<Option<f64>> {
    let bytes = body.as_bytes();
    let mut at = 0;
    let mut mantissa: u64 = 0;
    let mut digits = 0usize; // significant digits taken into `mantissa`
    let mut seen = 0usize; // digits of any kind
    let mut too_long = false;
    let mut scale: i64 = 0; // the power of ten of the mantissa's last digit
    let mut fraction = false;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'0'..=b'9' => {
                seen += 1;
                if mantissa == 0 && b == b'0' {
                    // A leading zero adds no digit; in the fraction it shifts the rest.
                    if fraction {
                        scale -= 1;
                    }
                } else if digits < 19 {
                    mantissa = mantissa * 10 + u64::from(b - b'0');
                    digits += 1;
                    if fraction {
                        scale -= 1;
                    }
                } else {
                    too_long = true;
                }
            }
            b'.' if !fraction => fraction = true,
            _ => break,
        }
        at += 1;
    }
    if seen == 0 {
        return None;
    }
    let mut exponent: i64 = 0;
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        let negative = match bytes.get(at) {
            Some(b'-') => {
                at += 1;
                true
            }
            Some(b'+') => {
                at += 1;
                false
            }
            _ => false,
        };
        let start = at;
        while let Some(d @ b'0'..=b'9') = bytes.get(at) {
            exponent = (exponent * 10 + i64::from(d - b'0')).min(1 << 40);
            at += 1;
        }
        if at == start {
            return None;
        }
        if negative {
            exponent = -exponent;
        }
    }
    if at != bytes.len() {
        return None;
    }
    if mantissa == 0 {
        return Some(Some(0.0));
    }
    let power = scale + exponent;
    if too_long || mantissa >= 1 << 53 || power.unsigned_abs() > 22 {
        return Some(None);
    }
    let ten = EXACT_POWERS[power.unsigned_abs() as usize];
    Some(Some(if power < 0 {
        mantissa as f64 / ten
    } else {
        mantissa as f64 * ten
    }))
}

/// A well-formed unsigned decimal number, correctly rounded.
#[cfg(target_arch = "wasm32")]
fn correctly_rounded(body: &str) -> Option<f64> {
    Some(js_sys::parse_float(body))
}

/// A well-formed unsigned decimal number, correctly rounded.
#[cfg(not(target_arch = "wasm32"))]
fn correctly_rounded(body: &str) -> Option<f64> {
    body.parse().ok()
}

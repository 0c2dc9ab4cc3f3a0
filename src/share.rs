//! Share by URL: the design on show and the console's commands, in the link's fragment (which
//! never reaches a server) as `#s=1.<base64url of zlib-deflated JSON>`. The `1` is the format
//! version; zlib's checksum tells a damaged link from a good one. A link longer than
//! [`MAX_FRAGMENT`] is refused: the session then goes by file export instead.

use crate::kit::base64::{self, Alphabet};
use serde::{Deserialize, Serialize};

/// The format version this build writes and reads.
pub const VERSION: u32 = 1;

/// The longest fragment a link carries, in bytes: long links are cut by chat programs, mail
/// clients and some servers' logs.
pub const MAX_FRAGMENT: usize = 32 * 1024;

/// The most a link may inflate to: a link is short, its contents need not be large, and a
/// crafted one must not take the page's memory.
const MAX_INFLATED: usize = 8 * 1024 * 1024;

/// What a link carries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shared {
    /// The gallery design on show, by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub design: Option<String>,
    /// The commands, each as it was submitted, oldest first.
    #[serde(default)]
    pub commands: Vec<String>,
}

/// Why a session could not become a link, or a link a session.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    /// The session's link would pass [`MAX_FRAGMENT`].
    #[error("the link would be {bytes} bytes long, more than the {max} a link can safely carry")]
    TooLong { bytes: usize, max: usize },
    /// The fragment is no share link.
    #[error("the address holds no shared session (it does not start with #s=)")]
    NotALink,
    /// A link of a format this build does not know.
    #[error("the link is of format {0}, which this version of Rowkey cannot read (it reads format {VERSION})")]
    Version(String),
    /// The link was cut or changed on its way.
    #[error("the link is damaged ({0}); it was probably cut short when it was copied")]
    Damaged(&'static str),
}

/// The fragment (without `#`) of a link to this session.
pub fn encode(shared: &Shared) -> Result<String, ShareError> {
    let json = serde_json::to_vec(shared)
        .map_err(|_| ShareError::Damaged("the session could not be written"))?;
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&json, 9);
    let fragment = format!(
        "s={VERSION}.{}",
        base64::encode(&packed, Alphabet::UrlNoPad)
    );
    if fragment.len() + 1 > MAX_FRAGMENT {
        return Err(ShareError::TooLong {
            bytes: fragment.len() + 1,
            max: MAX_FRAGMENT,
        });
    }
    Ok(fragment)
}

/// Whether a location's fragment is meant as a share link (so that a damaged one is reported,
/// and any other fragment is left alone).
pub fn is_link(fragment: &str) -> bool {
    fragment.trim_start_matches('#').starts_with("s=")
}

/// The session a fragment carries (with or without the leading `#`).
pub fn decode(fragment: &str) -> Result<Shared, ShareError> {
    let body = fragment
        .trim_start_matches('#')
        .strip_prefix("s=")
        .ok_or(ShareError::NotALink)?;
    if body.len() + 3 > MAX_FRAGMENT {
        return Err(ShareError::TooLong {
            bytes: body.len() + 3,
            max: MAX_FRAGMENT,
        });
    }
    let (version, data) = body
        .split_once('.')
        .ok_or(ShareError::Damaged("it has no format version"))?;
    if version != VERSION.to_string() {
        if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ShareError::Damaged("it has no format version"));
        }
        return Err(ShareError::Version(version.to_string()));
    }
    let packed = base64::decode(data.trim_end(), Alphabet::UrlNoPad)
        .map_err(|_| ShareError::Damaged("it holds characters, or a length, that no link has"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&packed, MAX_INFLATED)
        .map_err(|_| ShareError::Damaged("its compressed contents do not check out"))?;
    serde_json::from_slice(&json).map_err(|_| ShareError::Damaged("its contents are not a session"))
}

/// The existing tables that a link's commands would change (`put`, `delete`, `drop`, `alter`,
/// ... on a table that `exists` says is there, directly or through a table reference), in
/// order of first mention: what opening the link must ask about. A table the commands create
/// first is theirs and not listed.
pub fn tables_changed(commands: &[String], exists: impl Fn(&str) -> bool) -> Vec<String> {
    use crate::analysis::{analyze, existing_changed, Dialect};
    existing_changed(&analyze(commands, Dialect::HBase), exists)
}

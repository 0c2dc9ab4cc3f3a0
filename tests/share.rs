//! Share by URL: a session (the design on show and the console's commands) becomes a link
//! fragment `s=1.<base64url of zlib>` and back; a link too long, cut short, altered, or of
//! another format says so.
use rowkey::share::{decode, encode, is_link, ShareError, Shared, MAX_FRAGMENT, VERSION};

fn session() -> Shared {
    Shared {
        design: Some("csdn.blog".into()),
        commands: vec![
            "create 'users', {NAME => 'info', VERSIONS => 3}".into(),
            "put 'users', \"u\\x00\\xFF\", 'info:name', 'Ada, \"the first\" 🙂'\nscan 'users'"
                .into(),
        ],
    }
}

#[test]
fn a_session_round_trips_through_its_link() -> Result<(), ShareError> {
    let s = session();
    let fragment = encode(&s)?;
    assert!(fragment.starts_with(&format!("s={VERSION}.")), "{fragment}");
    // Only characters a URL fragment carries as they are.
    assert!(fragment
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_.=".contains(&b)));
    assert!(is_link(&format!("#{fragment}")));
    assert_eq!(decode(&format!("#{fragment}"))?, s);
    assert_eq!(decode(&fragment)?, s);
    assert_eq!(decode(&encode(&Shared::default())?)?, Shared::default());
    Ok(())
}

#[test]
fn repetitive_sessions_compress_and_a_link_stops_at_32_kb() -> Result<(), ShareError> {
    // A thousand similar puts compress far below their size.
    let commands: Vec<String> = (0..1000)
        .map(|i| {
            format!(
                "put 'metrics', 'host{:03}-{i:06}', 'm:cpu', '{}'",
                i % 7,
                i % 100
            )
        })
        .collect();
    let plain: usize = commands.iter().map(String::len).sum();
    let fragment = encode(&Shared {
        design: None,
        commands,
    })?;
    assert!(
        plain > 40_000 && fragment.len() < plain / 3,
        "{plain} -> {}",
        fragment.len()
    );
    // Incompressible text past the limit is refused, with the size.
    let mut x: u64 = 1;
    let noise: String = (0..40_000)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            char::from(b'!' + (x >> 58) as u8)
        })
        .collect();
    match encode(&Shared {
        design: None,
        commands: vec![noise],
    }) {
        Err(ShareError::TooLong { bytes, max }) => assert!(bytes > max && max == MAX_FRAGMENT),
        other => panic!("expected too long, got {other:?}"),
    }
    Ok(())
}

#[test]
fn a_damaged_link_says_how() -> Result<(), ShareError> {
    let fragment = encode(&session())?;
    // Cut short, as a chat program might.
    let cut = &fragment[..fragment.len() - 10];
    assert!(matches!(decode(cut), Err(ShareError::Damaged(_))));
    // One character changed: the checksum catches it.
    let mut bytes = fragment.clone().into_bytes();
    let i = bytes.len() / 2;
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    let changed = String::from_utf8(bytes).unwrap_or_default();
    assert!(
        matches!(decode(&changed), Err(ShareError::Damaged(_))),
        "{changed}"
    );
    assert!(matches!(
        decode("s=1.!!!"),
        Err(ShareError::Damaged(
            "it holds characters, or a length, that no link has"
        ))
    ));
    assert!(matches!(
        decode("s=abc"),
        Err(ShareError::Damaged("it has no format version"))
    ));
    assert_eq!(decode("s=7.AAAA"), Err(ShareError::Version("7".into())));
    assert_eq!(decode("#section-2"), Err(ShareError::NotALink));
    assert!(!is_link("#section-2"));
    let message = decode(cut).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.starts_with("the link is damaged"), "{message}");
    Ok(())
}

#[test]
fn the_tables_a_link_would_change_are_named() {
    let commands = vec![
        "create 'fresh', 'f'\nput 'fresh', 'r', 'f:q', 'v'".to_string(),
        "scan 'users'\nput 'users', 'r', 'info:q', 'v'; get 'blog', 'x'".to_string(),
        "disable 'blog'\ndrop 'blog'\nput 'users', 'r2', 'info:q', 'v'\nput 'missing', 'r', 'f:q', 'v'".to_string(),
    ];
    let exists = |t: &str| ["users", "blog"].contains(&t);
    assert_eq!(
        rowkey::share::tables_changed(&commands, exists),
        vec!["users", "blog"]
    );
    assert!(rowkey::share::tables_changed(&["scan 'users'".to_string()], exists).is_empty());
}

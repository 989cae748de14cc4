//! SPEC 6.0 chapter 5, the target slot (§path-syntax): local paths and scheme URLs, queries,
//! the slot's escapes, globs and worker names. One test per tag, on our own inputs.

mod spec_support;
use plurnk_parser::__private::target;
use plurnk_parser::parse_path;
use serde_json::json;
use spec_support::*;

fn t(input: &str) -> serde_json::Value {
    clean(input)["target"].clone()
}

/// §path-syntax: a case-insensitive `scheme://` prefix makes a WHATWG URL; anything else is a
/// raw local path; malformed URL structure is a visitor error with its working form.
#[test]
fn path_syntax_urls_and_local_paths() {
    let u = t("```READ (HTTPS://Docs.Example.org:8443/a/../b?x=1#top)\n```");
    assert_eq!(
        u,
        json!({"kind": "url", "raw": "HTTPS://Docs.Example.org:8443/a/../b?x=1#top", "scheme": "https", "username": null, "password": null,
               "hostname": "docs.example.org", "port": 8443, "pathname": "/b", "query": "x=1", "fragment": "top"})
    );
    assert_eq!(t("```READ (notes/2024 plan.md)\n```"), json!({"kind": "local", "raw": "notes/2024 plan.md"}));
    // `mailto:` has no `//`: a local path.
    assert_eq!(t("```READ (mailto:a@b.c)\n```")["kind"], "local");
    let e = refusal("```READ (http://exa mple.com/x)\n```");
    assert_eq!((e["message"].clone(), e["source"].clone()), (json!("invalid URI in path"), json!("visitor")));
    assert!(e["recovery"].as_str().unwrap().contains("scheme://"));
    // The `parsePath` entry reads the same slot.
    assert_eq!(serde_json::to_value(parse_path("worker:///a.md").unwrap()).unwrap()["pathname"], "/a.md");
    assert!(parse_path("http://[::1").is_err());
}

/// §path-query: the serialized query is lossless: order, duplicates, encoded spelling, and an
/// absent (`null`) versus an explicit empty (`""`) query survive.
#[test]
fn path_query_is_lossless() {
    assert_eq!(t("```READ (https://api.test/q?z=1&a=2&a=%2F)\n```")["query"], "z=1&a=2&a=%2F");
    assert_eq!(t("```READ (https://api.test/q?)\n```")["query"], "");
    assert_eq!(t("```READ (https://api.test/q)\n```")["query"], json!(null));
}

/// §path-parentheses: an unescaped depth-zero `)` closes the slot; balanced parentheses are
/// kept; `\\`, `\(` and `\)` decode in one pass; other pairs keep both characters; raw `<` is
/// never target content.
#[test]
fn path_parentheses_escapes_and_balance() {
    assert_eq!(t("```READ (report (final).pdf)\n```")["raw"], "report (final).pdf");
    assert_eq!(t("```READ (a\\)b\\(c.txt)\n```")["raw"], "a)b(c.txt");
    assert_eq!(t("```READ (dir\\\\file.txt)\n```")["raw"], "dir\\file.txt");
    assert_eq!(t("```READ (src/\\*.rs)\n```")["raw"], "src/\\*.rs");
    assert_eq!(target::encode_slot("a(b)\\c"), "a\\(b\\)\\\\c");
    assert_eq!(target::decode_slot(&target::encode_slot("x)(\\y")), "x)(\\y");
    let e = refusal("```READ (a<b.md)\n```");
    assert_eq!(
        (e["message"].clone(), e["column"].clone()),
        (json!("unrecognized character '<' in `(path)` slot - expected URI characters or `)`"), json!(10))
    );
}

/// §path-glob: exact path versus pattern: `*`, `?`, classes, braces, extglobs and escapes are
/// glob syntax, and the first position of one is found; globs stay legal path data.
#[test]
fn path_glob_classification() {
    for g in ["src/*.rs", "a?.md", "[ab].txt", "{a,b}.md", "@(x|y).md", "\\*"] {
        assert!(target::has_glob(g), "{g}");
    }
    assert!(!target::has_glob("src/main.rs"));
    assert_eq!(target::glob_magic_index("docs/api/*.md"), Some(9));
    assert_eq!(t("```FIND (src/**/{mod,lib}.rs)\n```")["raw"], "src/**/{mod,lib}.rs");
}

/// §worker-name: the parser decomposes any authority: names the minting rule would refuse
/// (`_plurnk`, 64 characters) and ordinary ones (`self`) alike, case preserved.
#[test]
fn worker_name_any_authority_decomposes() {
    assert_eq!(t("```READ (worker://_plurnk/log.md)\n```")["hostname"], "_plurnk");
    assert_eq!(t("```READ (worker://self/notes.md)\n```")["hostname"], "self");
    let long = "w".repeat(64);
    assert_eq!(t(&format!("```READ (worker://{long}/a)\n```"))["hostname"], long.as_str());
    // Case is preserved in the name: two workers, not one.
    let a = only("```SEND (worker://Approach_A)\nx\n```");
    let b = only("```SEND (worker://approach_a)\nx\n```");
    assert_ne!(a["target"]["raw"], b["target"]["raw"]);
}

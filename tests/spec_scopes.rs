//! SPEC 6.0 chapter 7, scope markers (§scope-slot): components, anchors, the tolerated spellings
//! and the two-component range recovery. One test per tag, on our own inputs.

mod spec_support;
use serde_json::json;
use spec_support::*;

/// §scope-slot: the `<scope>` slot is `lineMarker`; numeric scopes keep their ordered
/// components; the operation's domain decides what is admitted (FIND numbers only, text
/// coordinates with anchors, none on execution-free operations).
#[test]
fn scope_slot_is_the_line_marker_in_its_domain() {
    assert_eq!(clean("```FIND (logs/) <21,40>\n```")["lineMarker"], json!({"marks": [21, 40]}));
    assert_eq!(marks(&clean("```READ (a.txt) <@Zz09a,-1>\n```")), json!(["@Zz09a", -1]));
    assert_eq!(marks(&clean("```KILL (a.txt) <4>\n```")), json!([4]));
    assert_eq!(
        refusal("```FIND (logs/) <@Zz09a>\n```")["message"],
        "invalid FIND scope \"<@Zz09a>\"; use numeric result positions, e.g. `<1,16>`"
    );
}

/// §text-line-anchor-syntax, §scope-slot: an anchor is `@` and exactly five Base62 characters,
/// case-sensitive, wherever a line position stands; columns, prepend `0` and append `-1` stay
/// numeric.
#[test]
fn text_line_anchor_syntax_anchors_stand_only_for_lines() {
    assert_eq!(marks(&clean("```EDIT (a.rs) <@aB3dE,4,@Xy9zQ,1>\nx\n```")), json!(["@aB3dE", 4, "@Xy9zQ", 1]));
    let s = clean("```COPY (a.rs) <@AAAAA> (b.rs) <@bbbbb,@ccccc>\n```");
    assert_eq!(
        (s["source"]["lineMarker"]["marks"].clone(), s["destination"]["lineMarker"]["marks"].clone()),
        (json!(["@AAAAA"]), json!(["@bbbbb", "@ccccc"]))
    );
    assert_eq!(marks(&clean("```EDIT (a.rs) <0>\nx\n```")), json!([0]));
    for scope in ["<3,@abcde,4,5>", "<@abcde,1,@fghij,@klmno>", "<2,@abcde,9>"] {
        let e = refusal(&format!("```EDIT (a.rs) {scope}\nx\n```"));
        assert_eq!(e["source"], "lexer", "{scope}");
        assert!(e["message"].as_str().unwrap().starts_with(&format!("invalid EDIT scope \"{scope}\"")), "{e:#}");
    }
    // Six characters, or a non-Base62 one, are no anchor.
    assert_eq!(refusal("```READ (a.rs) <@abcdef>\n```")["source"], "lexer");
    assert_eq!(refusal("```READ (a.rs) <@ab_de>\n```")["source"], "lexer");
}

/// §scope-marker-forms: commas with no spaces are canonical; one space after a comma and a dash
/// separator are tolerated; each component keeps a leading minus and a decimal fraction for the
/// runtime; an anchor-bearing scope uses commas.
#[test]
fn scope_marker_forms_tolerated_spellings() {
    assert_eq!(marks(&clean("```READ (a) <5, 9>\n```")), json!([5, 9]));
    assert_eq!(marks(&clean("```READ (a) <5-9>\n```")), json!([5, 9]));
    assert_eq!(marks(&clean("```READ (a) <-3--1>\n```")), json!([-3, -1]));
    assert_eq!(marks(&clean("```READ (a) <2.5,7.25>\n```")), json!([2.5, 7.25]));
    assert_eq!(marks(&clean("```READ (a) <@abcde, @fghij>\n```")), json!(["@abcde", "@fghij"]));
    assert_eq!(refusal("```READ (a) <5,  9>\n```")["source"], "lexer");
    assert_eq!(refusal("```READ (a) <@abcde-@fghij>\n```")["source"], "lexer");
}

/// §scope-range-recovery: `start,count` with `count < start` and `start,+offset` are read as
/// their inclusive ranges with one warning each; forward ranges, sentinels, anchors and
/// four-component regions are not reinterpreted; `+N` alone and unsafe arithmetic are refused.
#[test]
fn scope_range_recovery_counts_and_offsets() {
    let r = result("```READ (big.log) <395,12>\n```");
    assert_eq!(
        (marks(&statements_of(&r)[0]), messages_of(&r)),
        (json!([395, 406]), vec!["warning: Scope <395,12> was read as <395,406>.".to_string()])
    );
    let r = result("```FIND (src) <30,+5>\n```");
    assert_eq!(
        (marks(&statements_of(&r)[0]), messages_of(&r)),
        (json!([30, 35]), vec!["warning: Scope <30,+5> was read as <30,35>.".to_string()])
    );
    for (scope, want) in
        [("<12,395>", json!([12, 395])), ("<5,-1>", json!([5, -1])), ("<7,7>", json!([7, 7])), ("<9,3,2,1>", json!([9, 3, 2, 1]))]
    {
        assert_eq!(marks(&clean(&format!("```READ (a) {scope}\n```"))), want, "{scope}");
    }
    assert_eq!(refusal("```READ (a) <+12>\n```")["severity"], "error");
    assert_eq!(
        refusal("```READ (a) <9007199254740991,+1>\n```")["message"],
        "Scope <9007199254740991,+1> exceeds safe integer coordinates."
    );
    // WAIT durations and owner-defined SEND scopes are outside the recovery.
    assert_eq!(marks(&clean("```SEND (worker://a) <9,2>\nx\n```")), json!([9, 2]));
}

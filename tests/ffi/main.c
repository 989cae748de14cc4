/* Drives the C ABI (include/plurnk_parser.h) the way a C host would; run by tests/ffi.rs.
 * Prints one line per check and exits non-zero on the first failure. */
#include <stdio.h>
#include <string.h>
#include "plurnk_parser.h"

static int failures = 0;

static void expect(const char *name, const char *input, size_t input_len, const char *options, const char *needle) {
    char *out = plurnk_parse((const uint8_t *)input, input_len, (const uint8_t *)options, options ? strlen(options) : 0);
    if (out == NULL || strstr(out, needle) == NULL) {
        printf("FAIL %s: %s lacks %s\n", name, out ? out : "(null)", needle);
        failures++;
    } else {
        printf("ok %s\n", name);
    }
    plurnk_free(out);
}

int main(void) {
    const char *turn = "I will read it.\n```READ (src/a.rs) <1,40>\n```\n";
    expect("parse", turn, strlen(turn), NULL,
           "{\"result\":{\"items\":[{\"kind\":\"text\",\"content\":\"I will read it.\\n\"");
    expect("statement", turn, strlen(turn), "{}", "\"op\":\"READ\"");
    expect("parseStatements with executors", "```python3 (tools/r.py)\nprint(1)\n```", 36,
           "{\"entry\": \"parseStatements\", \"executors\": [\"python3\"]}", "\"runtime\":\"python3\"");
    expect("parseClient", "```LOOK (known://x)\n```", 23, "{\"entry\": \"parseClient\"}", "\"op\":\"LOOK\"");
    expect("parseReasoning", "```NOTE\nthinking\n```\n```EDIT (a)\nx\n```", 38, "{\"entry\": \"parseReasoning\"}",
           "{\"result\":{\"items\":[{\"kind\":\"statement\",\"statement\":{\"op\":\"NOTE\"");
    expect("operationAttempt", "Done.\nREAD (a.md)\n", 18, "{\"entry\": \"operationAttempt\"}", "\"kind\":\"heading\"");
    expect("parsePath", "worker:///a.md#readable", 23, "{\"entry\": \"parsePath\"}", "\"fragment\":\"readable\"");
    expect("empty input", NULL, 0, NULL, "No valid Operation Syntax OPs detected.");
    /* A multi-byte character split by the length is invalid UTF-8: the call throws, it does not crash. */
    expect("invalid UTF-8", "\xe6\x97", 2, NULL, "{\"throws\":\"input is not valid UTF-8");
    expect("bad options", "x", 1, "[1]", "{\"throws\":\"options must be a JSON object\"}");
    expect("unknown entry", "x", 1, "{\"entry\": \"nope\"}", "{\"throws\":\"unknown entry `nope`");
    plurnk_free(NULL);
    if (failures) {
        printf("%d failed\n", failures);
        return 1;
    }
    printf("all passed\n");
    return 0;
}

/* Fuzz target: the JSON-RPC receive path, as a daemon runs it on bytes from
 * a peer: the incremental JSON stream parser, then message validation.
 *
 * The first input byte chooses the size of the chunks the rest is fed in,
 * so that values split across reads are exercised.  Checks:
 *   - the parser never crashes or leaks, whatever the bytes;
 *   - feeding the input in chunks gives exactly the values, and the final
 *     status, that feeding it whole gives;
 *   - the parser never asks for more input once told the input has ended;
 *   - a value accepted as a message survives a round trip: message → JSON
 *     text → message gives the same text again.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "fuzz.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "json.h"
#include "jsonrpc.h"
#include "util.h"

/* Small limits, so that the size and depth checks are reached. */
#define MAX_SIZE 4096
#define MAX_DEPTH 32

static int parse_stream(const uint8_t *data, size_t size, size_t chunk,
                        struct ds *values);
static int drain(struct jsonx_parser *, struct ds *values);
static void check_message(json_t *);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ds whole = DS_EMPTY_INITIALIZER;
    struct ds pieces = DS_EMPTY_INITIALIZER;
    int whole_status, pieces_status;
    size_t chunk;

    if (!size) {
        return 0;
    }
    chunk = data[0] % 16 + 1;
    data++;
    size--;

    whole_status = parse_stream(data, size, 0, &whole);
    pieces_status = parse_stream(data, size, chunk, &pieces);
    FUZZ_CHECK(!strcmp(ds_cstr(&whole), ds_cstr(&pieces)),
               "chunked input gave other values than whole input");
    FUZZ_CHECK(whole_status == pieces_status,
               "chunked input ended otherwise than whole input");

    ds_destroy(&whole);
    ds_destroy(&pieces);
    return 0;
}

/* Parses the 'size' bytes at 'data', fed in pieces of 'chunk' bytes (0: in
 * one piece).  Appends each value's compact text and a new-line to
 * 'values'.  Returns the status that ended parsing: EOF, EPROTO or
 * EMSGSIZE. */
static int
parse_stream(const uint8_t *data, size_t size, size_t chunk,
             struct ds *values)
{
    struct jsonx_parser *parser = jsonx_parser_create(MAX_SIZE, MAX_DEPTH);
    bool finished = false;
    size_t ofs = 0;
    int status;

    for (;;) {
        if (ofs < size) {
            size_t n = chunk ? MIN(chunk, size - ofs) : size - ofs;

            jsonx_parser_feed(parser, data + ofs, n);
            ofs += n;
        } else {
            jsonx_parser_finish(parser);
            finished = true;
        }

        status = drain(parser, values);
        if (status != EAGAIN) {
            break;
        }
        FUZZ_CHECK(!finished, "parser wants input after the end");
    }
    jsonx_parser_destroy(parser);
    return status;
}

/* Takes every complete value out of 'parser', checking each as a message.
 * Returns EAGAIN when it needs more input, otherwise the ending status. */
static int
drain(struct jsonx_parser *parser, struct ds *values)
{
    for (;;) {
        json_t *value;
        int error = jsonx_parser_next(parser, &value);

        if (error) {
            FUZZ_CHECK(error == EAGAIN || error == EOF || error == EPROTO
                       || error == EMSGSIZE, "unexpected parser status");
            FUZZ_CHECK(error == EAGAIN || error == EOF
                       || jsonx_parser_get_error(parser),
                       "an error without an explanation");
            return error;
        }
        jsonx_to_ds(value, 0, values);
        ds_put_char(values, '\n');
        check_message(value);
    }
}

/* Consumes 'value'.  If it is a valid JSON-RPC message, checks that its
 * text reads back as the same message. */
static void
check_message(json_t *value)
{
    struct jsonrpc_msg *msg, *again;
    char *text, *text_again, *error;
    json_t *json;

    error = jsonrpc_msg_from_json(value, &msg);
    if (error) {
        FUZZ_CHECK(!msg, "an invalid message was returned");
        free(error);
        return;
    }
    FUZZ_CHECK(!jsonrpc_msg_is_valid(msg), "accepted message is invalid");

    text = jsonrpc_msg_to_string(msg);
    json = jsonx_from_string(text, NULL);
    FUZZ_CHECK(json, "a message's text does not parse");
    error = jsonrpc_msg_from_json(json, &again);
    FUZZ_CHECK(!error, "a message's text is not a valid message");
    text_again = jsonrpc_msg_to_string(again);
    FUZZ_CHECK(!strcmp(text, text_again), "round trip changed a message");

    free(text);
    free(text_again);
    jsonrpc_msg_destroy(msg);
    jsonrpc_msg_destroy(again);
}

/* table: tables of output for the database tools (see table.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "table.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dynamic-string.h"
#include "json.h"
#include "util.h"

static char *cell_text(const struct table_cell *, const struct table_style *);
static void format_table(const struct table *, const struct table_style *,
                         struct ds *);
static void format_list(const struct table *, const struct table_style *,
                        struct ds *);
static void format_html(const struct table *, const struct table_style *,
                        struct ds *);
static void format_csv(const struct table *, const struct table_style *,
                       struct ds *);
static void format_json(const struct table *, const struct table_style *,
                        struct ds *);

/* ------------------------------------------------------------------------
 * Public functions.
 * ------------------------------------------------------------------------ */

/* Creates an empty table; see table.h. */
struct table *
table_create(const char *caption)
{
    struct table *t = xzalloc(sizeof *t);

    t->caption = caption ? xstrdup(caption) : NULL;
    return t;
}

/* Frees 't' and its cells. */
void
table_destroy(struct table *t)
{
    if (!t) {
        return;
    }
    for (size_t i = 0; i < t->n_columns; i++) {
        free(t->headings[i]);
    }
    for (size_t i = 0; i < t->n_rows * t->n_columns; i++) {
        free(t->cells[i].text);
        free(t->cells[i].bare);
        json_decref(t->cells[i].json);
    }
    free(t->headings);
    free(t->cells);
    free(t->caption);
    free(t);
}

/* Appends a column headed 'heading'; see table.h. */
void
table_add_column(struct table *t, const char *heading)
{
    util_assert(!t->n_rows);
    t->headings = xrealloc(t->headings,
                           (t->n_columns + 1) * sizeof *t->headings);
    t->headings[t->n_columns++] = xstrdup(heading);
}

/* Appends a row of empty cells and returns them; see table.h. */
struct table_cell *
table_add_row(struct table *t)
{
    struct table_cell *row;

    t->n_rows++;
    t->cells = xrealloc(t->cells, MAX(t->n_rows * t->n_columns, 1)
                                  * sizeof *t->cells);
    row = &t->cells[(t->n_rows - 1) * t->n_columns];
    memset(row, 0, t->n_columns * sizeof *row);
    return row;
}

/* Sets 'cell'; see table.h. */
void
table_cell_set(struct table_cell *cell, const char *text, const char *bare,
               json_t *json)
{
    free(cell->text);
    free(cell->bare);
    json_decref(cell->json);
    cell->text = xstrdup(text);
    cell->bare = bare ? xstrdup(bare) : NULL;
    cell->json = json ? json : json_string(text);
    cell->fixed = false;
}

/* Sets 'cell' to a label; see table.h. */
void
table_cell_set_fixed(struct table_cell *cell, const char *text, json_t *json)
{
    table_cell_set(cell, text, NULL, json);
    cell->fixed = true;
}

/* Appends 't' printed in 'style' to 'out'. */
void
table_format(const struct table *t, const struct table_style *style,
             struct ds *out)
{
    switch (style->format) {
    case TABLE_FORMAT_TABLE:
        format_table(t, style, out);
        break;
    case TABLE_FORMAT_LIST:
        format_list(t, style, out);
        break;
    case TABLE_FORMAT_HTML:
        format_html(t, style, out);
        break;
    case TABLE_FORMAT_CSV:
        format_csv(t, style, out);
        break;
    case TABLE_FORMAT_JSON:
        format_json(t, style, out);
        break;
    }
}

/* ------------------------------------------------------------------------
 * The formats.
 * ------------------------------------------------------------------------ */

static const struct table_cell *
cell_at(const struct table *t, size_t row, size_t column)
{
    return &t->cells[row * t->n_columns + column];
}

static void
put_caption(const struct table *t, struct ds *out)
{
    if (t->caption) {
        ds_put_format(out, "%s\n", t->caption);
    }
}

/* Appends 'line' to 'out' without its trailing spaces, and a new line. */
static void
put_line(struct ds *out, struct ds *line)
{
    ds_chomp(line, ' ');
    ds_put_format(out, "%s\n", ds_cstr(line));
    ds_clear(line);
}

static void
format_table(const struct table *t, const struct table_style *style,
             struct ds *out)
{
    size_t *widths = xcalloc(t->n_columns + 1, sizeof *widths);
    char **texts = xcalloc(t->n_rows * t->n_columns + 1, sizeof *texts);
    struct ds line = DS_EMPTY_INITIALIZER;

    for (size_t c = 0; c < t->n_columns; c++) {
        widths[c] = style->headings ? strlen(t->headings[c]) : 0;
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->n_columns; c++) {
            char *text = cell_text(cell_at(t, r, c), style);

            texts[r * t->n_columns + c] = text;
            widths[c] = MAX(widths[c], strlen(text));
        }
    }

    put_caption(t, out);
    if (style->headings) {
        for (size_t c = 0; c < t->n_columns; c++) {
            ds_put_format(&line, "%s%-*s", c ? " " : "", (int) widths[c],
                          t->headings[c]);
        }
        put_line(out, &line);
        for (size_t c = 0; c < t->n_columns; c++) {
            if (c) {
                ds_put_char(&line, ' ');
            }
            ds_put_char_multiple(&line, '-', widths[c]);
        }
        put_line(out, &line);
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->n_columns; c++) {
            ds_put_format(&line, "%s%-*s", c ? " " : "", (int) widths[c],
                          texts[r * t->n_columns + c]);
        }
        put_line(out, &line);
    }

    for (size_t i = 0; i < t->n_rows * t->n_columns; i++) {
        free(texts[i]);
    }
    free(texts);
    free(widths);
    ds_destroy(&line);
}

static void
format_list(const struct table *t, const struct table_style *style,
            struct ds *out)
{
    put_caption(t, out);
    for (size_t r = 0; r < t->n_rows; r++) {
        if (r) {
            ds_put_char(out, '\n');
        }
        for (size_t c = 0; c < t->n_columns; c++) {
            char *text = cell_text(cell_at(t, r, c), style);

            if (style->headings) {
                ds_put_format(out, "%-20s: ", t->headings[c]);
            }
            ds_put_format(out, "%s\n", text);
            free(text);
        }
    }
}

/* Appends the first 'n' bytes of 's' to 'out', escaped for HTML. */
static void
put_html_escaped(struct ds *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&':
            ds_put_cstr(out, "&amp;");
            break;
        case '<':
            ds_put_cstr(out, "&lt;");
            break;
        case '>':
            ds_put_cstr(out, "&gt;");
            break;
        case '"':
            ds_put_cstr(out, "&quot;");
            break;
        default:
            ds_put_char(out, s[i]);
            break;
        }
    }
}

/* The length of a UUID's text form, 8-4-4-4-12 hexadecimal digits. */
#define TABLE_UUID_LEN 36

/* Whether 's' begins with the text form of a UUID. */
static bool
starts_with_uuid(const char *s)
{
    for (size_t i = 0; i < TABLE_UUID_LEN; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;

        if (dash ? s[i] != '-' : !isxdigit((unsigned char) s[i])) {
            return false;
        }
    }
    return true;
}

/* Appends an HTML element 'tag' holding 'text', in which, as in Open
 * vSwitch's output, each UUID becomes a link to the row it names, shown by
 * its first 8 digits. */
static void
put_html_cell(struct ds *out, const char *tag, const char *text)
{
    ds_put_format(out, "    <%s>", tag);
    for (const char *p = text; *p; ) {
        if (starts_with_uuid(p)) {
            ds_put_format(out, "<a href=\"#%.*s\">%.8s</a>",
                          TABLE_UUID_LEN, p, p);
            p += TABLE_UUID_LEN;
        } else {
            put_html_escaped(out, p, 1);
            p++;
        }
    }
    ds_put_format(out, "</%s>\n", tag);
}

/* The caption is the table's <caption>; a cell in a column headed "_uuid"
 * is the anchor that the links to its row point to. */
static void
format_html(const struct table *t, const struct table_style *style,
            struct ds *out)
{
    ds_put_cstr(out, "<table border=1>\n");
    if (t->caption) {
        put_html_cell(out, "caption", t->caption);
    }
    if (style->headings) {
        ds_put_cstr(out, "  <tr>\n");
        for (size_t c = 0; c < t->n_columns; c++) {
            put_html_cell(out, "th", t->headings[c]);
        }
        ds_put_cstr(out, "  </tr>\n");
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        ds_put_cstr(out, "  <tr>\n");
        for (size_t c = 0; c < t->n_columns; c++) {
            char *text = cell_text(cell_at(t, r, c), style);

            if (!strcmp(t->headings[c], "_uuid")) {
                ds_put_cstr(out, "    <td><a name=\"");
                put_html_escaped(out, text, strlen(text));
                ds_put_cstr(out, "\">");
                put_html_escaped(out, text, MIN(strlen(text), 8));
                ds_put_cstr(out, "</a></td>\n");
            } else {
                put_html_cell(out, "td", text);
            }
            free(text);
        }
        ds_put_cstr(out, "  </tr>\n");
    }
    ds_put_cstr(out, "</table>\n");
}

static void
put_csv_field(struct ds *out, const char *s, const char *specials)
{
    if (strpbrk(s, specials)) {
        ds_put_char(out, '"');
        for (; *s; s++) {
            if (*s == '"') {
                ds_put_char(out, '"');
            }
            ds_put_char(out, *s);
        }
        ds_put_char(out, '"');
    } else {
        ds_put_cstr(out, s);
    }
}

static void
format_csv(const struct table *t, const struct table_style *style,
           struct ds *out)
{
    const char *specials = style->csv_specials ? style->csv_specials
                                               : ",\"\r\n";

    put_caption(t, out);
    if (style->headings) {
        for (size_t c = 0; c < t->n_columns; c++) {
            if (c) {
                ds_put_char(out, ',');
            }
            put_csv_field(out, t->headings[c], specials);
        }
        ds_put_char(out, '\n');
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->n_columns; c++) {
            char *text = cell_text(cell_at(t, r, c), style);

            if (c) {
                ds_put_char(out, ',');
            }
            put_csv_field(out, text, specials);
            free(text);
        }
        ds_put_char(out, '\n');
    }
}

static void
format_json(const struct table *t, const struct table_style *style,
            struct ds *out)
{
    json_t *top = json_object();
    json_t *data = json_array();

    if (t->caption) {
        json_object_set_new(top, "caption", json_string(t->caption));
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        json_t *row = json_array();

        for (size_t c = 0; c < t->n_columns; c++) {
            json_array_append(row, cell_at(t, r, c)->json);
        }
        json_array_append_new(data, row);
    }
    json_object_set_new(top, "data", data);
    /* Open vSwitch's tools write the headings even with --no-headings. */
    json_object_set_new(top, "headings",
                        jsonx_string_array((const char *const *) t->headings,
                                           t->n_columns));
    jsonx_to_ds(top, (style->json_flags | JSONX_SORT_KEYS
                      | (style->pretty ? JSONX_PRETTY | JSONX_PRETTY_OVS : 0)),
                out);
    ds_put_char(out, '\n');
    json_decref(top);
}

/* The text of 'cell' in the style's data form, malloc()ed. */
static char *
cell_text(const struct table_cell *cell, const struct table_style *style)
{
    if (cell->fixed) {
        return xstrdup(cell->text);
    }
    switch (style->data) {
    case TABLE_DATA_BARE:
        return xstrdup(cell->bare ? cell->bare : cell->text);
    case TABLE_DATA_JSON:
        return jsonx_to_string(cell->json, style->json_flags
                                           & ~JSONX_SORT_KEYS);
    case TABLE_DATA_STRING:
    default:
        return xstrdup(cell->text);
    }
}

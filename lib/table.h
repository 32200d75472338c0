/* table: tables of output for the database tools (ovs-vsctl's list and find,
 * ovsdb-client's query commands), in the formats Open vSwitch's tools print:
 *
 *   table  columns padded to their widest cell, a heading line and a line of
 *          dashes, trailing spaces dropped;
 *   list   "heading            : value" lines, a blank line between rows;
 *   html   a <table border=1> with escaped text, the caption as its
 *          <caption>, each UUID in a cell a link to the row whose "_uuid"
 *          cell is its anchor;
 *   csv    comma-separated, a field quoted (quotes doubled) when it holds
 *          one of the style's special characters;
 *   json   {"data": [[cell...]...], "headings": [...]} (and "caption").
 *
 * Each cell holds its value as text (--data=string), bare text (--data=bare:
 * no quotes or brackets) and JSON (the json format, --data=json).  Nothing
 * here knows OVSDB datums: the callers turn their values into cells.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef TABLE_H
#define TABLE_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct ds;

enum table_format {
    TABLE_FORMAT_TABLE,
    TABLE_FORMAT_LIST,
    TABLE_FORMAT_HTML,
    TABLE_FORMAT_CSV,
    TABLE_FORMAT_JSON
};

/* Which form of a cell the text formats print. */
enum table_data {
    TABLE_DATA_STRING,
    TABLE_DATA_BARE,
    TABLE_DATA_JSON
};

/* How to print a table. */
struct table_style {
    enum table_format format;
    enum table_data data;
    bool headings;              /* Print the headings (the json format
                                 * always has them, as in Open vSwitch). */
    bool pretty;                /* json format: one member a line. */
    int json_flags;             /* JSONX_* flags for JSON output and cells
                                 * (JSONX_PRETTY: use 'pretty'). */
    const char *csv_specials;   /* Characters that make a CSV field quoted. */
};

struct table_cell {
    char *text;                 /* Never NULL once set. */
    char *bare;                 /* NULL: same as 'text'. */
    json_t *json;
    bool fixed;                 /* 'text' in every data form. */
};

struct table {
    char *caption;              /* Printed first, or NULL. */
    char **headings;
    size_t n_columns;
    struct table_cell *cells;   /* 'n_rows' rows of 'n_columns' cells. */
    size_t n_rows;
};

/* Creates an empty table with 'caption' (copied; may be NULL). */
struct table *table_create(const char *caption);
void table_destroy(struct table *);

/* Appends a column headed 'heading' (copied).  All columns come before the
 * first row. */
void table_add_column(struct table *, const char *heading);

/* Appends a row and returns its 'n_columns' cells, empty, to be set with
 * table_cell_set().  The pointer is valid until the next row is added. */
struct table_cell *table_add_row(struct table *);

/* Sets 'cell' to 'text' and 'bare' (copied; 'bare' may be NULL) and 'json'
 * (taken; NULL: 'text' as a JSON string). */
void table_cell_set(struct table_cell *, const char *text, const char *bare,
                    json_t *json);

/* Sets 'cell' to a label rather than a value: 'text' (copied) in every data
 * form, 'json' (taken; NULL: 'text' as a JSON string) in the json format. */
void table_cell_set_fixed(struct table_cell *, const char *text,
                          json_t *json);

/* Appends 't' printed in 'style' to 'out'. */
void table_format(const struct table *t, const struct table_style *style,
                  struct ds *out);

#endif /* table.h */

/* The legal results of a roll in C: the compiled twin of moves.py's legal_results / max_dice_playable for the
 * standard rules (any checker count, so nackgammon and hypergammon too; never backward hitting).
 *
 * Why: listing the results of a roll is what every uploaded record and every position analysis costs, and in
 * Python it stays several times slower than GNU Backgammon's C generator. This file is built by `make install`
 * (tools/build_movegen.py) when a C compiler is there; without it moves.py's pure Python generator answers, and
 * that generator stays the reference: tests/backgammon/test_movegen_c.py holds this one to it.
 *
 * A position is 50 counts in the mover's view, as in moves.py: the mover's 25 (index i = its own point i + 1,
 * 24 = its bar), then the opponent's 25 in the opponent's own numbering. My point p is the opponent's index
 * 24 - p. The search plays one die at a time; a double only in sequences whose sources never rise (moves.py's
 * _generate_doubles says why that loses no result); results are kept only at the most dice played, and with
 * one die playable of a non-double only the larger die's. Distinct results are kept in an open-addressing
 * table, then returned as Boards (the type of the board given) in the Board key layout.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#if PY_VERSION_HEX >= 0x030D0000
#define AS_BYTES(v, bytes, n) _PyLong_AsByteArray((PyLongObject *)(v), (bytes), (n), 1, 0, 1)
#else
#define AS_BYTES(v, bytes, n) _PyLong_AsByteArray((PyLongObject *)(v), (bytes), (n), 1, 0)
#endif

typedef struct {
    unsigned char c[50];
} Pos;

typedef struct {
    Pos *items;
    Py_ssize_t *slots; /* index into items + 1; 0 = empty */
    Py_ssize_t count, capacity, nslots;
    int best;          /* the most dice a recorded result played */
    int no_single;     /* the larger die alone was playable: results of the smaller die alone do not count */
    int dice[4];
    int ndice;
    int doubles;
    int failed;        /* out of memory */
} Search;

static Py_ssize_t hash_pos(const Pos *p) {
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < 50; i++) {
        h ^= p->c[i];
        h *= 1099511628211ULL;
    }
    return (Py_ssize_t)(h >> 1);
}

static void table_clear(Search *s) {
    s->count = 0;
    memset(s->slots, 0, sizeof(Py_ssize_t) * (size_t)s->nslots);
}

static int table_grow(Search *s) {
    Py_ssize_t capacity = s->capacity * 2, nslots = s->nslots * 2;
    Pos *items = PyMem_Realloc(s->items, sizeof(Pos) * (size_t)capacity);
    if (items == NULL) return -1;
    s->items = items;
    Py_ssize_t *slots = PyMem_Calloc((size_t)nslots, sizeof(Py_ssize_t));
    if (slots == NULL) return -1;
    PyMem_Free(s->slots);
    s->slots = slots;
    s->capacity = capacity;
    s->nslots = nslots;
    for (Py_ssize_t i = 0; i < s->count; i++) {
        Py_ssize_t slot = hash_pos(&s->items[i]) & (nslots - 1);
        while (slots[slot]) slot = (slot + 1) & (nslots - 1);
        slots[slot] = i + 1;
    }
    return 0;
}

static void record(Search *s, const Pos *p, int depth) {
    if (depth < s->best || s->failed) return;
    if (depth == 1 && s->no_single) return;
    if (depth > s->best) {
        s->best = depth;
        table_clear(s);
    }
    Py_ssize_t slot = hash_pos(p) & (s->nslots - 1);
    while (s->slots[slot]) {
        if (memcmp(&s->items[s->slots[slot] - 1], p, sizeof(Pos)) == 0) return;
        slot = (slot + 1) & (s->nslots - 1);
    }
    if (s->count * 2 >= s->capacity) { /* keep the slots at most a quarter full */
        if (table_grow(s) < 0) {
            s->failed = 1;
            return;
        }
        record(s, p, depth);
        return;
    }
    s->items[s->count] = *p;
    s->slots[slot] = ++s->count;
}

/* One step of `die` from `source` (1..24, 25 = bar) if legal: the new position in `out`. */
static int step(const Pos *p, int source, int die, Pos *out) {
    const unsigned char *c = p->c;
    int target = source - die;
    if (target >= 1) {
        int blockers = c[25 + 24 - target];
        if (blockers >= 2) return 0;
        *out = *p;
        out->c[source - 1]--;
        out->c[target - 1]++;
        if (blockers) {
            out->c[25 + 24 - target] = 0;
            out->c[49]++;
        }
        return 1;
    }
    /* bearing off: every checker home, and an overshoot only from the highest occupied point */
    for (int i = 6; i < 25; i++)
        if (c[i]) return 0;
    if (target < 0)
        for (int i = source; i < 6; i++)
            if (c[i]) return 0;
    *out = *p;
    out->c[source - 1]--;
    return 1;
}

static void walk(Search *s, const Pos *p, int depth, int limit) {
    if (s->failed) return;
    if (depth == s->ndice) {
        record(s, p, depth);
        return;
    }
    int die = s->dice[depth];
    int moved = 0;
    Pos next;
    if (p->c[24]) { /* a checker on the bar enters first */
        if (step(p, 25, die, &next)) {
            moved = 1;
            walk(s, &next, depth + 1, 25);
        }
    } else {
        int top = limit > 24 ? 24 : limit;
        for (int source = top; source >= 1; source--) {
            if (p->c[source - 1] && step(p, source, die, &next)) {
                moved = 1;
                walk(s, &next, depth + 1, s->doubles ? source : 25);
            }
        }
    }
    if (!moved) record(s, p, depth);
}

static int search_init(Search *s) {
    memset(s, 0, sizeof(*s));
    s->capacity = 256;
    s->nslots = 512;
    s->items = PyMem_Malloc(sizeof(Pos) * (size_t)s->capacity);
    s->slots = PyMem_Calloc((size_t)s->nslots, sizeof(Py_ssize_t));
    if (s->items == NULL || s->slots == NULL) {
        PyMem_Free(s->items);
        PyMem_Free(s->slots);
        PyErr_NoMemory();
        return -1;
    }
    s->best = -1;
    return 0;
}

static void search_free(Search *s) {
    PyMem_Free(s->items);
    PyMem_Free(s->slots);
}

/* The mover's view of `board` (a Board: the tuple (key, total)) into `start`; 0, or -1 with an exception set. */
static int read_board(PyObject *board, int side, int die1, int die2, Pos *start) {
    if (!PyTuple_Check(board) || PyTuple_GET_SIZE(board) != 2 || !PyLong_Check(PyTuple_GET_ITEM(board, 0))) {
        PyErr_SetString(PyExc_TypeError, "a Board (key, total) is needed");
        return -1;
    }
    if (die1 < 1 || die1 > 6 || die2 < 1 || die2 > 6 || (side != 0 && side != 1)) {
        PyErr_SetString(PyExc_ValueError, "dice are 1..6 and side is 0 or 1");
        return -1;
    }
    unsigned char key[50];
    if (AS_BYTES(PyTuple_GET_ITEM(board, 0), key, 50) < 0) return -1;
    memcpy(start->c, key + 25 * side, 25);
    memcpy(start->c + 25, key + 25 * (1 - side), 25);
    return 0;
}

/* Every legal result of the roll from `start` into `s` (initialised here); 0, or -1 with an exception set. */
static int search(Search *s, const Pos *start, int die1, int die2) {
    if (search_init(s) < 0) return -1;
    if (die1 == die2) {
        s->doubles = 1;
        s->ndice = 4;
        s->dice[0] = s->dice[1] = s->dice[2] = s->dice[3] = die1;
        walk(s, start, 0, 25);
    } else {
        int high = die1 > die2 ? die1 : die2, low = die1 > die2 ? die2 : die1;
        s->ndice = 2;
        s->dice[0] = high;
        s->dice[1] = low;
        walk(s, start, 0, 25);
        s->no_single = s->best >= 1; /* the larger die alone was playable: it is the one to play */
        s->dice[0] = low;
        s->dice[1] = high;
        walk(s, start, 0, 25);
    }
    if (s->failed) {
        search_free(s);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int contains(const Search *s, const Pos *p) {
    Py_ssize_t slot = hash_pos(p) & (s->nslots - 1);
    while (s->slots[slot]) {
        if (memcmp(&s->items[s->slots[slot] - 1], p, sizeof(Pos)) == 0) return 1;
        slot = (slot + 1) & (s->nslots - 1);
    }
    return 0;
}

/* The Board of a mover's-view position, of the type and checker total of `board`. */
static PyObject *to_board(const Pos *p, int side, PyObject *board) {
    unsigned char key[50];
    memcpy(key + 25 * side, p->c, 25);
    memcpy(key + 25 * (1 - side), p->c + 25, 25);
    PyObject *number = _PyLong_FromByteArray(key, 50, 1, 0);
    if (number == NULL) return NULL;
    PyTypeObject *type = Py_TYPE(board);
    PyObject *result = type->tp_alloc(type, 2);
    if (result == NULL) {
        Py_DECREF(number);
        return NULL;
    }
    PyTuple_SET_ITEM(result, 0, number);
    PyObject *total = PyTuple_GET_ITEM(board, 1);
    Py_INCREF(total);
    PyTuple_SET_ITEM(result, 1, total);
    return result;
}

/* Parse (board, side, die1, die2) and run the search; 0, or -1 with an exception set. */
static int run(PyObject *args, Search *s, PyObject **board, int *side) {
    int die1, die2;
    Pos start;
    if (!PyArg_ParseTuple(args, "Oiii", board, side, &die1, &die2)) return -1;
    if (read_board(*board, *side, die1, die2, &start) < 0) return -1;
    return search(s, &start, die1, die2);
}

/* results(board, side, die1, die2) -> set of Boards */
static PyObject *results(PyObject *Py_UNUSED(module), PyObject *args) {
    Search s;
    PyObject *board;
    int side;
    if (run(args, &s, &board, &side) < 0) return NULL;
    PyObject *found = PySet_New(NULL);
    for (Py_ssize_t i = 0; found != NULL && i < s.count; i++) {
        PyObject *result = to_board(&s.items[i], side, board);
        if (result == NULL || PySet_Add(found, result) < 0) Py_CLEAR(found);
        Py_XDECREF(result);
    }
    search_free(&s);
    return found;
}

/* dice_used(board, side, die1, die2) -> how many dice the forced-play rule makes the mover play */
static PyObject *dice_used(PyObject *Py_UNUSED(module), PyObject *args) {
    Search s;
    PyObject *board;
    int side;
    if (run(args, &s, &board, &side) < 0) return NULL;
    search_free(&s);
    return PyLong_FromLong(s.best);
}

/* One written step, read from a (from, to) pair of small ints; 0 when it is not one. */
static int read_step(PyObject *item, int *origin, int *target) {
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) return 0;
    long a = PyLong_AsLong(PyTuple_GET_ITEM(item, 0)), b = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (!(0 <= b && b < a && a <= 25)) return 0;
    *origin = (int)a;
    *target = (int)b;
    return 1;
}

static int by_value(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* play(board, side, die1, die2, steps, hits) -> (result Board, steps in the order played) or None.

   The compiled twin of moves.py's _play_direct (see there for the rules of the road and why): the verdict on a
   written move that plays one die per step, or None to leave the move to check_play's search. */
static PyObject *play(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *board, *steps, *hits;
    int side, die1, die2;
    Pos start;
    if (!PyArg_ParseTuple(args, "OiiiO!O", &board, &side, &die1, &die2, &PyTuple_Type, &steps, &hits)) return NULL;
    if (read_board(board, side, die1, die2, &start) < 0) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(steps);
    int doubles = die1 == die2, pool = doubles ? 4 : 2;
    if (count > pool) Py_RETURN_NONE;
    int origins[4], targets[4];
    for (Py_ssize_t i = 0; i < count; i++)
        if (!read_step(PyTuple_GET_ITEM(steps, i), &origins[i], &targets[i])) Py_RETURN_NONE;
    int marked[8], nmarked = -1; /* -1: the record marks no hits at all (hits is None) */
    if (hits != Py_None) {
        if (!PyTuple_Check(hits) || PyTuple_GET_SIZE(hits) > 8) Py_RETURN_NONE;
        nmarked = (int)PyTuple_GET_SIZE(hits);
        for (int i = 0; i < nmarked; i++) {
            marked[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(hits, i));
            if (PyErr_Occurred()) {
                PyErr_Clear();
                Py_RETURN_NONE;
            }
        }
        qsort(marked, (size_t)nmarked, sizeof(int), by_value);
    }
    /* The plans in the order the search tries them: the written order before the other, the larger die first. */
    int high = die1 > die2 ? die1 : die2, low = die1 > die2 ? die2 : die1;
    int orders[4][4], dice[4][4], nplans;
    if (doubles) {
        nplans = 1;
        for (int i = 0; i < 4; i++) {
            orders[0][i] = i;
            dice[0][i] = die1;
        }
    } else if (count == 2) {
        static const int two_orders[4][2] = {{0, 1}, {0, 1}, {1, 0}, {1, 0}};
        nplans = 4;
        for (int p = 0; p < 4; p++) {
            orders[p][0] = two_orders[p][0];
            orders[p][1] = two_orders[p][1];
            dice[p][0] = p % 2 ? low : high;
            dice[p][1] = p % 2 ? high : low;
        }
    } else {
        nplans = 2;
        orders[0][0] = orders[1][0] = 0;
        dice[0][0] = high;
        dice[1][0] = low;
    }
    for (int p = 0; p < nplans; p++) {
        Pos state = start;
        unsigned char *c = state.c;
        int landed[4], nlanded = 0, ok = 1;
        for (Py_ssize_t i = 0; i < count && ok; i++) {
            int origin = origins[orders[p][i]], target = targets[orders[p][i]], die = dice[p][i];
            int index = origin - 1;
            if ((target ? origin - target != die : origin > die) || !c[index] || (origin != 25 && c[24])) {
                ok = 0;
                break;
            }
            if (target) {
                int blockers = c[49 - target];
                if (blockers >= 2) {
                    ok = 0;
                    break;
                }
                if (blockers) {
                    c[49 - target] = 0;
                    c[49]++;
                    landed[nlanded++] = target;
                }
                c[target - 1]++;
            } else {
                for (int j = 6; j < 25 && ok; j++)
                    if (c[j]) ok = 0;
                if (origin < die)
                    for (int j = origin; j < 6 && ok; j++)
                        if (c[j]) ok = 0;
                if (!ok) break;
            }
            c[index]--;
        }
        if (!ok) continue;
        if (nmarked >= 0 && (nmarked || nlanded)) {
            if (nmarked != nlanded) Py_RETURN_NONE;
            qsort(landed, (size_t)nlanded, sizeof(int), by_value);
            for (int i = 0; i < nlanded; i++)
                if (landed[i] != marked[i]) Py_RETURN_NONE; /* the marks may pick another realisation */
        }
        if (count < pool) { /* fewer dice than the roll: only when no more can be played, and the larger alone */
            Search s;
            if (search(&s, &start, die1, die2) < 0) return NULL;
            int allowed = s.best == count && (doubles || count != 1 || contains(&s, &state));
            search_free(&s);
            if (!allowed) Py_RETURN_NONE;
        }
        PyObject *played = PyTuple_New(count);
        if (played == NULL) return NULL;
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *item = PyTuple_GET_ITEM(steps, orders[p][i]);
            Py_INCREF(item);
            PyTuple_SET_ITEM(played, i, item);
        }
        PyObject *result = to_board(&state, side, board);
        if (result == NULL) {
            Py_DECREF(played);
            return NULL;
        }
        return Py_BuildValue("(NN)", result, played);
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"results", results, METH_VARARGS, "results(board, side, die1, die2) -> the set of legal result Boards"},
    {"dice_used", dice_used, METH_VARARGS, "dice_used(board, side, die1, die2) -> dice the mover must play"},
    {"play", play, METH_VARARGS,
     "play(board, side, die1, die2, steps, hits) -> (result Board, steps as played), or None: ask the search"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "compiled_moves", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_compiled_moves(void) { return PyModule_Create(&module); }

/* The GradientTape's hot path in C: the usual training step

       with sg.GradientTape() as tape:
           loss = model(x, y)            # a @sg.differentiable function reading Variables
       grads = tape.gradient(loss, params)

   runs through here: creating, entering and leaving the tape, leaving the call pending
   on it, and answering ``gradient`` with the call's generated backward; so does the
   usual call of ``implicit_value_and_gradients`` (``run_static``). Every other case
   returns to the Python code (``GENERAL``, None, or a ``_``-prefixed method of the Python
   class), which is the specification: ``srcgrad/eager/fastpath.py`` is the same hot path
   in Python, used when this module is not built (or ``SRCGRAD_PURE_PYTHON=1``), and the
   eager tests run on both. The interpreter's glue, not the arithmetic, is what this
   saves: about 30k instructions per tape step (logreg, batch 32: +20% over
   ``value_and_grad`` in Python, +1.5% here).
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <pythread.h>

/* ---- module state (set once by ``setup``) ------------------------------------------ */

/* What fastpath.py expects (``_fast.VERSION``): a build older than its Python twin is
   not used. */
#define FAST_VERSION 2

static PyObject *RECORDING;         /* thread ident -> tuple of tapes, innermost last */
static PyObject *ARMED;             /* thread ident -> None: threads whose end is watched */
static PyObject *ARM;               /* fastpath.arm(ident): watch for this thread's end */
static PyObject *GENERAL;           /* "this call needs the general path" */
static PyObject *TRACKED_TYPES;     /* set: Tensor, Variable and their subclasses */
static PyTypeObject *TENSOR;        /* sg.Tensor */
static Py_ssize_t TENSOR_VALUE;     /* the offset of its ``_value`` slot */
static Py_ssize_t VARIABLE_VALUE;   /* the offset of VariableBase's ``_value`` slot */
static PyTypeObject *NDARRAY;       /* numpy.ndarray */
static PyTypeObject *GENERIC;       /* numpy.generic */
static PyTypeObject *FLOAT64;       /* numpy.float64 */
static PyObject *ONE;               /* the seed 1.0 */
static PyObject *EMPTY;             /* () */
static PyObject *S_value, *S_shape, *S_pop, *S_gradient, *S_record_ran, *S_finish_direct;
static PyObject *S_function, *S_dtype, *S_static_failed, *S_static_pairs;

/* Has ``setup`` given the types? (A RuntimeError if not.) */
static int
set_up(void)
{
    if (TENSOR != NULL)
        return 1;
    PyErr_SetString(PyExc_RuntimeError,
                    "srcgrad.eager._fast: setup() was not called (import srcgrad.eager.fastpath)");
    return 0;
}

/* ---- PendingCall -------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *plan, *backward, *saved, *read, *result;
} Pending;

static int
pending_traverse(Pending *self, visitproc visit, void *arg)
{
    Py_VISIT(self->plan); Py_VISIT(self->backward); Py_VISIT(self->saved);
    Py_VISIT(self->read); Py_VISIT(self->result);
    return 0;
}

static int
pending_clear(Pending *self)
{
    Py_CLEAR(self->plan); Py_CLEAR(self->backward); Py_CLEAR(self->saved);
    Py_CLEAR(self->read); Py_CLEAR(self->result);
    return 0;
}

static void
pending_dealloc(Pending *self)
{
    PyObject_GC_UnTrack(self);
    pending_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef pending_members[] = {
    {"plan", T_OBJECT, offsetof(Pending, plan), 0, NULL},
    {"backward", T_OBJECT, offsetof(Pending, backward), 0, NULL},
    {"saved", T_OBJECT, offsetof(Pending, saved), 0, NULL},
    {"read", T_OBJECT, offsetof(Pending, read), 0, NULL},
    {"result", T_OBJECT, offsetof(Pending, result), 0, NULL},
    {NULL}
};

static PyTypeObject PendingType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "srcgrad.eager._fast.PendingCall",
    .tp_doc = "A tape's only node while it is one compiled call: its plan, its generated "
              "backward, the saved values, the Variables read, the result.",
    .tp_basicsize = sizeof(Pending),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)pending_dealloc,
    .tp_traverse = (traverseproc)pending_traverse,
    .tp_clear = (inquiry)pending_clear,
    .tp_members = pending_members,
};

/* ---- PlanBase: what the hot path reads of a ``_CallPlan`` --------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *forward, *backward, *last, *shapes;
    char direct, pendable;
} Plan;

static int
plan_traverse(Plan *self, visitproc visit, void *arg)
{
    Py_VISIT(self->forward); Py_VISIT(self->backward); Py_VISIT(self->last);
    Py_VISIT(self->shapes);
    return 0;
}

static int
plan_clear(Plan *self)
{
    Py_CLEAR(self->forward); Py_CLEAR(self->backward); Py_CLEAR(self->last);
    Py_CLEAR(self->shapes);
    return 0;
}

static void
plan_dealloc(Plan *self)
{
    PyObject_GC_UnTrack(self);
    plan_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef plan_members[] = {
    {"direct", T_BOOL, offsetof(Plan, direct), 0, NULL},
    {"_pendable", T_BOOL, offsetof(Plan, pendable), 0, NULL},
    {"_forward", T_OBJECT, offsetof(Plan, forward), 0, NULL},
    {"_backward", T_OBJECT, offsetof(Plan, backward), 0, NULL},
    {"_last", T_OBJECT, offsetof(Plan, last), 0, NULL},
    {"shapes", T_OBJECT, offsetof(Plan, shapes), 0, NULL},
    {NULL}
};

static PyTypeObject PlanType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "srcgrad.eager._fast.PlanBase",
    .tp_doc = "The fields of a call plan that the tape's hot path reads.",
    .tp_basicsize = sizeof(Plan),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)plan_dealloc,
    .tp_traverse = (traverseproc)plan_traverse,
    .tp_clear = (inquiry)plan_clear,
    .tp_members = plan_members,
};

/* ---- TapeBase ----------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *tracked, *variables, *nodes, *pending;
    PyObject *weakreflist;
    char persistent, watch_accessed, recording, entered, used, in_jacobian;
} Tape;

static int
tape_traverse(Tape *self, visitproc visit, void *arg)
{
    Py_VISIT(self->tracked); Py_VISIT(self->variables); Py_VISIT(self->nodes);
    Py_VISIT(self->pending);
    return 0;
}

static int
tape_clear(Tape *self)
{
    Py_CLEAR(self->tracked); Py_CLEAR(self->variables); Py_CLEAR(self->nodes);
    Py_CLEAR(self->pending);
    return 0;
}

static void
tape_dealloc(Tape *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    tape_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
tape_init(Tape *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"persistent", "watch_accessed_variables", NULL};
    int persistent = 0, watch = 1;
    if ((PyTuple_GET_SIZE(args) != 0 || (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0)) &&
            !PyArg_ParseTupleAndKeywords(args, kwargs, "|pp:GradientTape", keywords,
                                         &persistent, &watch))   /* (GradientTape(): none) */
        return -1;
    /* (the containers are made on first use: the usual step never needs them) */
    Py_CLEAR(self->tracked);
    Py_CLEAR(self->variables);
    Py_CLEAR(self->nodes);
    Py_XSETREF(self->pending, Py_NewRef(Py_None));
    self->persistent = (char)persistent;
    self->watch_accessed = (char)watch;
    self->recording = self->entered = self->used = self->in_jacobian = 0;
    return 0;
}

/* This thread's key in RECORDING (a new reference): ``threading.get_ident()``, the
   int object kept for the thread that asked last. */
static unsigned long last_ident;
static PyObject *last_key;

static PyObject *
thread_key(void)
{
    unsigned long ident = PyThread_get_thread_ident();
    if (last_key == NULL || ident != last_ident) {
        PyObject *key = PyLong_FromUnsignedLong(ident);
        if (key == NULL)
            return NULL;
        Py_XSETREF(last_key, key);
        last_ident = ident;
    }
    return Py_NewRef(last_key);
}

/* The tuple of tapes recording on this thread (borrowed), or NULL (an error set only
   when ``*key`` is NULL or PyErr_Occurred()). */
static PyObject *
thread_tapes(PyObject **key)
{
    *key = thread_key();
    if (*key == NULL)
        return NULL;
    return PyDict_GetItemWithError(RECORDING, *key);
}

static PyObject *
tape_enter(Tape *self, PyObject *unused)
{
    if (self->recording) {
        PyErr_SetString(PyExc_ValueError, "Tape is still recording, This can happen if you "
                        "try to re-enter an already-active tape.");
        return NULL;
    }
    if (!set_up())
        return NULL;
    PyObject *key, *stack = thread_tapes(&key), *pushed;
    if (key == NULL || (stack == NULL && PyErr_Occurred())) {
        Py_XDECREF(key);
        return NULL;
    }
    if (stack == NULL) {   /* the thread's first tape: is the thread's end watched? */
        int armed = PyDict_Contains(ARMED, key);
        PyObject *done = armed ? NULL : PyObject_CallOneArg(ARM, key);
        if (armed < 0 || (armed == 0 && done == NULL)) {
            Py_DECREF(key);
            return NULL;
        }
        Py_XDECREF(done);
    }
    Py_ssize_t n = stack == NULL ? 0 : PyTuple_GET_SIZE(stack);
    pushed = PyTuple_New(n + 1);
    if (pushed == NULL) {
        Py_DECREF(key);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(pushed, i, Py_NewRef(PyTuple_GET_ITEM(stack, i)));
    PyTuple_SET_ITEM(pushed, n, Py_NewRef((PyObject *)self));
    int failed = PyDict_SetItem(RECORDING, key, pushed);
    Py_DECREF(key);
    Py_DECREF(pushed);
    if (failed)
        return NULL;
    self->recording = self->entered = 1;
    return Py_NewRef((PyObject *)self);
}

static PyObject *
tape_exit(Tape *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (self->recording) {
        PyObject *key, *stack = thread_tapes(&key);
        if (key == NULL)
            return NULL;
        if (stack != NULL && PyTuple_GET_SIZE(stack) == 1 &&
                PyTuple_GET_ITEM(stack, 0) == (PyObject *)self) {   /* the usual case */
            int failed = PyDict_DelItem(RECORDING, key);
            Py_DECREF(key);
            if (failed)
                return NULL;
            self->recording = 0;
        }
        else {
            Py_DECREF(key);
            if (PyErr_Occurred())
                return NULL;
            PyObject *done = PyObject_CallMethodNoArgs((PyObject *)self, S_pop);
            if (done == NULL)
                return NULL;
            Py_DECREF(done);
        }
    }
    Py_RETURN_FALSE;
}

/* Is another tape recording on this thread? -1 on error. */
static int
any_recording(void)
{
    if (PyDict_GET_SIZE(RECORDING) == 0)
        return 0;
    PyObject *key, *stack = thread_tapes(&key);
    Py_XDECREF(key);
    if (key == NULL || (stack == NULL && PyErr_Occurred()))
        return -1;
    return stack != NULL && PyTuple_GET_SIZE(stack) > 0;
}

/* The gradients of the pending call w.r.t. ``sources`` when they are the Variables it
   read, in order; NULL with no error set when this is not the usual step. */
static PyObject *
direct_gradients(Tape *self, PyObject *target, PyObject *sources)
{
    PyObject *pending_obj = self->pending;
    if (pending_obj == NULL || Py_TYPE(pending_obj) != &PendingType || self->used ||
            self->recording || self->persistent)
        return NULL;
    Pending *pending = (Pending *)pending_obj;
    if (pending->result != target || !PyList_CheckExact(sources) ||
            pending->read == NULL || !PyTuple_CheckExact(pending->read) ||
            pending->plan == NULL || !PyObject_TypeCheck(pending->plan, &PlanType))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(pending->read);
    if (PyList_GET_SIZE(sources) != n)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyList_GET_ITEM(sources, i) != PyTuple_GET_ITEM(pending->read, i))
            return NULL;
    PyObject *shapes = ((Plan *)pending->plan)->shapes;
    if (shapes == NULL || !PyList_CheckExact(shapes) || PyList_GET_SIZE(shapes) != n)
        return NULL;
    int other = any_recording();
    if (other != 0) {   /* (an error here is met again, and raised, by the general path) */
        PyErr_Clear();
        return NULL;
    }
    PyObject *value = *(PyObject **)((char *)target + TENSOR_VALUE);   /* (the result) */
    if (value == NULL || Py_TYPE(value) != FLOAT64)
        return NULL;   /* (an array target: the Python path makes its seed) */

    /* From here on the backward has run: answer, or fail, but never fall back. (The
       backward may run any code: hold what is read after it.) */
    Py_INCREF(pending);
    Py_INCREF(shapes);
    PyObject *result = NULL, *call_args[2] = {pending->saved, ONE};
    PyObject *out = PyObject_Vectorcall(pending->backward, call_args, 2, NULL);
    if (out == NULL)
        goto done;
    PyObject *grads = PyTuple_CheckExact(out) && PyTuple_GET_SIZE(out) == 2 ?
        PyTuple_GET_ITEM(out, 1) : NULL;
    if (grads == NULL || !PyTuple_CheckExact(grads) || PyTuple_GET_SIZE(grads) != n) {
        PyErr_SetString(PyExc_SystemError, "a generated backward returned an unexpected value");
        goto done;
    }
    int shaped = 1;
    for (Py_ssize_t i = 0; i < n && shaped > 0; i++) {
        PyObject *shape = PyObject_GetAttr(PyTuple_GET_ITEM(grads, i), S_shape);
        if (shape == NULL) {   /* a None or a Python number */
            if (!PyErr_ExceptionMatches(PyExc_AttributeError))
                goto done;
            PyErr_Clear();
            shaped = 0;
        }
        else {
            shaped = PyObject_RichCompareBool(shape, PyList_GET_ITEM(shapes, i), Py_EQ);
            Py_DECREF(shape);
            if (shaped < 0)
                goto done;
        }
    }
    if (shaped) {
        result = PyList_New(n);
        if (result != NULL)
            for (Py_ssize_t i = 0; i < n; i++)
                PyList_SET_ITEM(result, i, Py_NewRef(PyTuple_GET_ITEM(grads, i)));
    }
    else
        result = PyObject_CallMethodObjArgs((PyObject *)self, S_finish_direct, grads,
                                            sources, NULL);
    if (result != NULL) {   /* a non-persistent tape answers once: free the saved values */
        self->used = 1;
        Py_XSETREF(pending->saved, Py_NewRef(Py_None));
    }
done:
    Py_XDECREF(out);
    Py_DECREF(shapes);
    Py_DECREF(pending);
    return result;
}

static PyObject *
tape_gradient(Tape *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs == 2 && kwnames == NULL && TENSOR != NULL) {   /* gradient(target, sources) */
        PyObject *grads = direct_gradients(self, args[0], args[1]);
        if (grads != NULL || PyErr_Occurred())
            return grads;
    }
    PyObject *call[5] = {(PyObject *)self};
    Py_ssize_t total = nargs + (kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames));
    if (total > 4)
        return PyErr_Format(PyExc_TypeError,
                            "gradient() takes at most 4 arguments (%zd given)", total);
    for (Py_ssize_t i = 0; i < total; i++)
        call[i + 1] = args[i];
    return PyObject_VectorcallMethod(S_gradient, call, nargs + 1, kwnames);
}

/* ``_tracked``, ``_variables`` (dicts used as ordered sets) and ``_nodes`` (a list),
   made when first read. */
static PyObject *
container(PyObject **slot, PyObject *(*make)(void))
{
    if (*slot == NULL && (*slot = make()) == NULL)
        return NULL;
    return Py_NewRef(*slot);
}

static PyObject *new_list(void) { return PyList_New(0); }

static int
set_container(PyObject **slot, PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete a tape's container");
        return -1;
    }
    Py_XSETREF(*slot, Py_NewRef(value));
    return 0;
}

static PyObject *get_tracked(Tape *self, void *c) { return container(&self->tracked, PyDict_New); }
static PyObject *get_variables(Tape *self, void *c) { return container(&self->variables, PyDict_New); }
static PyObject *get_nodes(Tape *self, void *c) { return container(&self->nodes, new_list); }
static int set_tracked(Tape *self, PyObject *v, void *c) { return set_container(&self->tracked, v); }
static int set_variables(Tape *self, PyObject *v, void *c) { return set_container(&self->variables, v); }
static int set_nodes(Tape *self, PyObject *v, void *c) { return set_container(&self->nodes, v); }

static PyGetSetDef tape_getset[] = {
    {"_tracked", (getter)get_tracked, (setter)set_tracked, NULL, NULL},
    {"_variables", (getter)get_variables, (setter)set_variables, NULL, NULL},
    {"_nodes", (getter)get_nodes, (setter)set_nodes, NULL, NULL},
    {NULL}
};

static PyMemberDef tape_members[] = {
    {"_pending", T_OBJECT, offsetof(Tape, pending), 0, NULL},
    {"_persistent", T_BOOL, offsetof(Tape, persistent), READONLY, NULL},
    {"_watch_accessed", T_BOOL, offsetof(Tape, watch_accessed), READONLY, NULL},
    {"_recording", T_BOOL, offsetof(Tape, recording), 0, NULL},
    {"_entered", T_BOOL, offsetof(Tape, entered), 0, NULL},
    {"_used", T_BOOL, offsetof(Tape, used), 0, NULL},
    {"_in_jacobian", T_BOOL, offsetof(Tape, in_jacobian), 0, NULL},
    {NULL}
};

static PyMethodDef tape_methods[] = {
    {"__enter__", (PyCFunction)tape_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)(void (*)(void))tape_exit, METH_FASTCALL, NULL},
    {"gradient", (PyCFunction)(void (*)(void))tape_gradient,
     METH_FASTCALL | METH_KEYWORDS,
     "gradient($self, /, target, sources, output_gradients=None, "
     "unconnected_gradients='none')\n--\n\n"
     "d(sum of the flattened ``target``)/d``sources``, shaped like ``sources``."},
    {NULL}
};

static PyTypeObject TapeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "srcgrad.eager._fast.TapeBase",
    .tp_doc = "TapeBase(persistent=False, watch_accessed_variables=True)\n--\n\n"
              "The state and hot path of a GradientTape.",
    .tp_basicsize = sizeof(Tape),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)tape_init,
    .tp_dealloc = (destructor)tape_dealloc,
    .tp_traverse = (traverseproc)tape_traverse,
    .tp_clear = (inquiry)tape_clear,
    .tp_weaklistoffset = offsetof(Tape, weakreflist),
    .tp_members = tape_members,
    .tp_getset = tape_getset,
    .tp_methods = tape_methods,
};

/* ---- record_direct ------------------------------------------------------------------ */

static int
untracked(PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    for (Py_ssize_t i = 0; i < n; i++) {
        int found = PySet_Contains(TRACKED_TYPES, (PyObject *)Py_TYPE(PyTuple_GET_ITEM(args, i)));
        if (found != 0)
            return found < 0 ? -1 : 0;
    }
    return 1;
}

static int
same_items(PyObject *read, PyObject *last)
{
    if (!PyTuple_CheckExact(read) || last == NULL || !PyTuple_CheckExact(last))
        return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(read);
    if (PyTuple_GET_SIZE(last) != n)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyTuple_GET_ITEM(read, i) != PyTuple_GET_ITEM(last, i))
            return 0;
    return 1;
}

static int
pending_free(Tape *tape)
{
    return (tape->pending == NULL || tape->pending == Py_None) &&
           (tape->nodes == NULL ||
            (PyList_CheckExact(tape->nodes) && PyList_GET_SIZE(tape->nodes) == 0));
}

static PyObject *
record_direct(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyDict_CheckExact(args[0]) || !PyTuple_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "record_direct(units, args, kwargs)");
        return NULL;
    }
    if (!set_up())
        return NULL;
    PyObject *units = args[0], *call_args = args[1], *kwargs = args[2];
    if (kwargs != Py_None && (!PyDict_Check(kwargs) || PyDict_GET_SIZE(kwargs) != 0))
        return Py_NewRef(GENERAL);
    PyObject *key, *stack = thread_tapes(&key);
    Py_XDECREF(key);
    if (key == NULL || (stack == NULL && PyErr_Occurred()))
        return NULL;
    if (stack == NULL || PyTuple_GET_SIZE(stack) != 1)
        return Py_NewRef(GENERAL);
    PyObject *tape_obj = PyTuple_GET_ITEM(stack, 0);
    PyObject *plan_obj = PyDict_GetItemWithError(units, EMPTY);
    if (plan_obj == NULL) {
        if (PyErr_Occurred())
            return NULL;
        return Py_NewRef(GENERAL);
    }
    if (!PyObject_TypeCheck(plan_obj, &PlanType) || !PyObject_TypeCheck(tape_obj, &TapeType))
        return Py_NewRef(GENERAL);
    Plan *plan = (Plan *)plan_obj;
    Tape *tape = (Tape *)tape_obj;
    if (!plan->direct || plan->forward == NULL || !tape->watch_accessed || !pending_free(tape))
        return Py_NewRef(GENERAL);
    int plain = untracked(call_args);
    if (plain <= 0)
        return plain < 0 ? NULL : Py_NewRef(GENERAL);

    Py_INCREF(plan_obj);   /* (the forward may run any code) */
    Py_INCREF(tape_obj);
    PyObject *result = NULL;
    PyObject *ran = PyObject_Call(plan->forward, call_args, NULL);
    if (ran == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {   /* the general path decides */
            PyErr_Clear();
            result = Py_NewRef(GENERAL);
        }
        goto done;
    }
    if (!PyTuple_CheckExact(ran) || PyTuple_GET_SIZE(ran) != 3) {
        PyErr_SetString(PyExc_SystemError, "a generated forward returned an unexpected value");
        goto done;
    }
    PyObject *value = PyTuple_GET_ITEM(ran, 0), *read = PyTuple_GET_ITEM(ran, 2);
    if (!(plan->pendable && same_items(read, plan->last) && pending_free(tape) &&
          (Py_TYPE(value) == NDARRAY || PyObject_TypeCheck(value, GENERIC)) &&
          plan->backward != NULL)) {   /* the forward has run: Python records it */
        result = PyObject_CallMethodObjArgs(plan_obj, S_record_ran, ran, call_args, tape_obj,
                                            NULL);
        goto done;
    }
    PyObject *tensor = TENSOR->tp_alloc(TENSOR, 0);   /* Tensor(value), not converted */
    if (tensor == NULL)
        goto done;
    *(PyObject **)((char *)tensor + TENSOR_VALUE) = Py_NewRef(value);
    Pending *pending = PyObject_GC_New(Pending, &PendingType);
    if (pending == NULL) {
        Py_DECREF(tensor);
        goto done;
    }
    pending->plan = Py_NewRef(plan_obj);
    pending->backward = Py_NewRef(plan->backward);
    pending->saved = Py_NewRef(PyTuple_GET_ITEM(ran, 1));
    pending->read = Py_NewRef(read);
    pending->result = Py_NewRef(tensor);
    PyObject_GC_Track(pending);
    Py_XSETREF(tape->pending, (PyObject *)pending);
    result = tensor;
done:
    Py_XDECREF(ran);
    Py_DECREF(plan_obj);
    Py_DECREF(tape_obj);
    return result;
}

/* ---- ImplicitBase and run_static --------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *static_variant, *bound, *last_variables, *order, *picks;
} Implicit;

static int
implicit_traverse(Implicit *self, visitproc visit, void *arg)
{
    Py_VISIT(self->static_variant); Py_VISIT(self->bound); Py_VISIT(self->last_variables);
    Py_VISIT(self->order); Py_VISIT(self->picks);
    return 0;
}

static int
implicit_clear(Implicit *self)
{
    Py_CLEAR(self->static_variant); Py_CLEAR(self->bound); Py_CLEAR(self->last_variables);
    Py_CLEAR(self->order); Py_CLEAR(self->picks);
    return 0;
}

static void
implicit_dealloc(Implicit *self)
{
    PyObject_GC_UnTrack(self);
    implicit_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef implicit_members[] = {
    {"static", T_OBJECT, offsetof(Implicit, static_variant), 0, NULL},
    {"bound", T_OBJECT, offsetof(Implicit, bound), 0, NULL},
    {"_last_variables", T_OBJECT, offsetof(Implicit, last_variables), 0, NULL},
    {"_order", T_OBJECT, offsetof(Implicit, order), 0, NULL},
    {"_picks", T_OBJECT, offsetof(Implicit, picks), 0, NULL},
    {NULL}
};

static PyTypeObject ImplicitType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "srcgrad.eager._fast.ImplicitBase",
    .tp_doc = "The fields of an implicit-gradient plan that run_static reads.",
    .tp_basicsize = sizeof(Implicit),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)implicit_dealloc,
    .tp_traverse = (traverseproc)implicit_traverse,
    .tp_clear = (inquiry)implicit_clear,
    .tp_members = implicit_members,
};

/* Is ``grad`` of the type (and, for an array, the dtype) of ``value``, so that
   ``finish`` would return it as it is? -1 on error. */
static int
as_its_variable(PyObject *grad, PyObject *value)
{
    if (Py_TYPE(grad) != Py_TYPE(value))
        return 0;
    if (Py_TYPE(value) != NDARRAY)
        return 1;
    PyObject *a = PyObject_GetAttr(grad, S_dtype), *b = PyObject_GetAttr(value, S_dtype);
    int same = a != NULL && b != NULL ? a == b : -1;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return same;
}

/* The usual answer: [(gradient, variable)] for the picked Variables, or NULL with no
   error set when a gradient needs ``finish``. */
static PyObject *
usual_pairs(PyObject *picks, PyObject *variables, PyObject *grads)
{
    Py_ssize_t n = PyTuple_GET_SIZE(picks), size = PyTuple_GET_SIZE(variables);
    PyObject *pairs = PyList_New(n);
    if (pairs == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(picks, k));
        if (i < 0 || i >= size || i >= PyTuple_GET_SIZE(grads)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_SystemError, "run_static: a pick out of range");
            Py_DECREF(pairs);
            return NULL;
        }
        PyObject *variable = PyTuple_GET_ITEM(variables, i), *grad = PyTuple_GET_ITEM(grads, i);
        PyObject *value = *(PyObject **)((char *)variable + VARIABLE_VALUE);
        int plain = value == NULL ? 0 : as_its_variable(grad, value);
        PyObject *pair = plain > 0 ? PyTuple_Pack(2, grad, variable) : NULL;
        if (pair == NULL) {
            Py_DECREF(pairs);
            return NULL;   /* (plain == 0: no error set) */
        }
        PyList_SET_ITEM(pairs, k, pair);
    }
    return pairs;
}

static PyObject *
run_static(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyObject_TypeCheck(args[0], &ImplicitType) ||
            !PyTuple_CheckExact(args[1]) || !PyDict_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "run_static(plan, args, kwargs)");
        return NULL;
    }
    if (!set_up())
        return NULL;
    Implicit *plan = (Implicit *)args[0];
    PyObject *call_args = args[1], *kwargs = args[2], *ran = NULL, *result = NULL;
    if (plan->static_variant == NULL || plan->static_variant == Py_None)
        Py_RETURN_NONE;   /* (another thread gave the variant up: the general code answers) */
    Py_INCREF(plan);   /* (the variant may run any code) */
    PyObject *function = PyObject_GetAttr(plan->static_variant, S_function);
    if (function == NULL)
        goto done;
    PyObject *kw = PyDict_GET_SIZE(kwargs) ? kwargs : NULL;
    if (plan->bound == NULL || plan->bound == Py_None)
        ran = PyObject_Call(function, call_args, kw);
    else {
        PyObject *head = PyTuple_Pack(1, plan->bound);
        PyObject *with_self = head == NULL ? NULL : PySequence_Concat(head, call_args);
        Py_XDECREF(head);
        ran = with_self == NULL ? NULL : PyObject_Call(function, with_self, kw);
        Py_XDECREF(with_self);
    }
    Py_DECREF(function);
    if (ran == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {   /* plan._static_failed(error) */
            PyObject *type, *error, *traceback;
            PyErr_Fetch(&type, &error, &traceback);
            PyErr_NormalizeException(&type, &error, &traceback);
            if (traceback != NULL)
                PyException_SetTraceback(error, traceback);
            result = PyObject_CallMethodOneArg((PyObject *)plan, S_static_failed, error);
            Py_XDECREF(type);
            Py_XDECREF(error);
            Py_XDECREF(traceback);
        }
        goto done;
    }
    if (!PyTuple_CheckExact(ran) || PyTuple_GET_SIZE(ran) != 3 ||
            !PyTuple_CheckExact(PyTuple_GET_ITEM(ran, 1)) ||
            !PyTuple_CheckExact(PyTuple_GET_ITEM(ran, 2))) {
        PyErr_SetString(PyExc_SystemError, "a generated variant returned an unexpected value");
        goto done;
    }
    PyObject *value = PyTuple_GET_ITEM(ran, 0), *variables = PyTuple_GET_ITEM(ran, 1);
    PyObject *grads = PyTuple_GET_ITEM(ran, 2);
    if (plan->picks != NULL && PyTuple_CheckExact(plan->picks) &&
            PyTuple_GET_SIZE(plan->picks) > 0 && same_items(variables, plan->last_variables)) {
        PyObject *pairs = usual_pairs(plan->picks, variables, grads);   /* the usual case */
        if (pairs != NULL) {
            result = PyTuple_Pack(2, value, pairs);
            Py_DECREF(pairs);
            goto done;
        }
        if (PyErr_Occurred())
            goto done;
    }
    result = PyObject_CallMethodObjArgs((PyObject *)plan, S_static_pairs, value, variables,
                                        grads, NULL);
done:
    Py_XDECREF(ran);
    Py_DECREF(plan);
    return result;
}

/* ---- module ------------------------------------------------------------------------- */

/* The offset of the ``_value`` slot (``__slots__``) of instances of ``type``; -1 on error. */
static Py_ssize_t
slot_offset(PyObject *type)
{
    PyObject *slot = PyObject_GetAttr(type, S_value);
    if (slot == NULL)
        return -1;
    Py_ssize_t offset = -1;
    if (Py_TYPE(slot) == &PyMemberDescr_Type &&
            ((PyMemberDescrObject *)slot)->d_member->type == T_OBJECT_EX)
        offset = ((PyMemberDescrObject *)slot)->d_member->offset;
    else
        PyErr_Format(PyExc_TypeError, "setup: %R._value must be a __slots__ slot", type);
    Py_DECREF(slot);
    return offset;
}

static PyObject *
setup(PyObject *module, PyObject *args)
{
    PyObject *tensor, *variable, *tracked, *ndarray, *generic, *float64, *armed, *arm;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O:setup", &PyType_Type, &tensor, &PyType_Type,
                          &variable, &PySet_Type, &tracked, &PyType_Type, &ndarray,
                          &PyType_Type, &generic, &PyType_Type, &float64, &PyDict_Type,
                          &armed, &arm))
        return NULL;
    if ((VARIABLE_VALUE = slot_offset(variable)) < 0)
        return NULL;
    if ((TENSOR_VALUE = slot_offset(tensor)) < 0)
        return NULL;
    Py_XSETREF(TENSOR, (PyTypeObject *)Py_NewRef(tensor));
    Py_XSETREF(TRACKED_TYPES, Py_NewRef(tracked));
    Py_XSETREF(NDARRAY, (PyTypeObject *)Py_NewRef(ndarray));
    Py_XSETREF(GENERIC, (PyTypeObject *)Py_NewRef(generic));
    Py_XSETREF(FLOAT64, (PyTypeObject *)Py_NewRef(float64));
    Py_XSETREF(ARMED, Py_NewRef(armed));
    Py_XSETREF(ARM, Py_NewRef(arm));
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"setup", setup, METH_VARARGS,
     "setup(Tensor, VariableBase, TRACKED_TYPES, ndarray, generic, float64, ARMED, arm): "
     "the types the hot path uses, and fastpath's watch on the end of threads."},
    {"record_direct", (PyCFunction)(void (*)(void))record_direct, METH_FASTCALL,
     "record_direct(units, args, kwargs): the usual call of a decorated function under "
     "one tape, left pending on it; GENERAL when the call needs the general path."},
    {"run_static", (PyCFunction)(void (*)(void))run_static, METH_FASTCALL,
     "run_static(plan, args, kwargs): an implicit plan's variant run, and its "
     "(value, [(gradient, variable), ...]); None when the general code must answer."},
    {NULL}
};

static struct PyModuleDef fast_module = {
    PyModuleDef_HEAD_INIT, "_fast",
    "The GradientTape's hot path in C (see srcgrad/eager/fastpath.py for its twin).",
    -1, module_methods,
};

PyMODINIT_FUNC
PyInit__fast(void)
{
    if (PyType_Ready(&PendingType) < 0 || PyType_Ready(&PlanType) < 0 ||
            PyType_Ready(&TapeType) < 0 || PyType_Ready(&ImplicitType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&fast_module);
    if (module == NULL)
        return NULL;
    RECORDING = PyDict_New();
    GENERAL = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type);
    ONE = PyFloat_FromDouble(1.0);
    EMPTY = PyTuple_New(0);
    S_value = PyUnicode_InternFromString("_value");
    S_shape = PyUnicode_InternFromString("shape");
    S_pop = PyUnicode_InternFromString("_pop");
    S_gradient = PyUnicode_InternFromString("_gradient");
    S_record_ran = PyUnicode_InternFromString("_record_ran");
    S_finish_direct = PyUnicode_InternFromString("_finish_direct");
    S_function = PyUnicode_InternFromString("function");
    S_dtype = PyUnicode_InternFromString("dtype");
    S_static_failed = PyUnicode_InternFromString("_static_failed");
    S_static_pairs = PyUnicode_InternFromString("_static_pairs");
    if (RECORDING == NULL || GENERAL == NULL || ONE == NULL || EMPTY == NULL ||
            S_value == NULL || S_shape == NULL || S_pop == NULL || S_gradient == NULL ||
            S_record_ran == NULL || S_finish_direct == NULL || S_function == NULL ||
            S_dtype == NULL || S_static_failed == NULL || S_static_pairs == NULL ||
            PyModule_AddIntConstant(module, "VERSION", FAST_VERSION) < 0 ||
            PyModule_AddObjectRef(module, "RECORDING", RECORDING) < 0 ||
            PyModule_AddObjectRef(module, "GENERAL", GENERAL) < 0 ||
            PyModule_AddObjectRef(module, "PendingCall", (PyObject *)&PendingType) < 0 ||
            PyModule_AddObjectRef(module, "PlanBase", (PyObject *)&PlanType) < 0 ||
            PyModule_AddObjectRef(module, "TapeBase", (PyObject *)&TapeType) < 0 ||
            PyModule_AddObjectRef(module, "ImplicitBase", (PyObject *)&ImplicitType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

/* Tracing of another part of the driver, found through a nested include. */
#define TRACE_EXIT	tracing_level--; return
#define TRACE_ABORT(res)	{ TRACE_EXIT res; }

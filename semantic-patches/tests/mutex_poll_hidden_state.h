/* A global another file sets: polling it is polling shared state. */
extern int hs_ready_from_header;

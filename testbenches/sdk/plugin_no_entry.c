/* A shared library that is not a host plugin: it exports no simtx_host_main. */
int simtx_host_mian(void);
int simtx_host_mian(void) { return 0; }

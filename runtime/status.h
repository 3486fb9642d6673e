// Status and exit codes shared by host and device.
#pragma once

enum gio_status {
  GIO_OK = 0,
  GIO_ERR_ARG = 1,        // bad argument (PE, address, size)
  GIO_ERR_NOMEM = 2,      // symmetric heap exhausted
  GIO_ERR_COLLECTIVE = 3, // PEs disagree on a collective's arguments
  GIO_ERR_TIMEOUT = 4,    // a bounded wait expired
  GIO_ERR_PLATFORM = 5,   // the GPU runtime (or emulator) reported an error
  GIO_ERR_INIT = 6,       // used before shmem_init or after shmem_finalize
  GIO_ERR_TRANSPORT = 7,  // a transport failed
};

// Process exit code used when GIO aborts a job (distinct from 1 so scripts can tell GIO aborts apart).
#define GIO_EXIT_CODE 17

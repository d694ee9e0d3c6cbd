#ifndef CMEMORYFILE_H
#define CMEMORYFILE_H

/// An anonymous in-memory file (`memfd_create`, close-on-exec): where a worker, which
/// the sandbox keeps from creating files, encodes a JPEG it needs as bytes (a gain
/// map). Returns the descriptor, or -1 with errno set. Its own target, so a conversion
/// links it without the worker sandbox (`CWorkerIPC`).
int h2j_memory_file(void);

#endif

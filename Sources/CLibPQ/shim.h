#ifndef MINERVA_CLIBPQ_SHIM_H
#define MINERVA_CLIBPQ_SHIM_H

#include <poll.h>
#include <libpq-fe.h>

#endif

#ifndef MINERVA_CMICROHTTPD_SHIM_H
#define MINERVA_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Settings for `minerva_mhd_start`, gathered in one struct so that the wrapper
/// below stays a single non-variadic call.
struct minerva_mhd_settings {
    unsigned int flags;
    uint16_t port;
    const struct sockaddr *address;   /* NULL: listen on all addresses */
    unsigned int thread_pool_size;    /* 0 or 1: the polling thread answers alone */
    unsigned int connection_limit;    /* split between the pool's workers */
    unsigned int connection_timeout;  /* seconds; 0: never */
    size_t connection_memory_limit;   /* bytes for headers and URL of one connection */
    unsigned int listen_backlog;
    MHD_AcceptPolicyCallback accept_policy; /* asked about each new connection */
    MHD_NotifyConnectionCallback notify_connection; /* connection opened and closed */
    void *callback_context;           /* of both callbacks above */
};

/// `MHD_OPTION_UNESCAPE_CALLBACK`: leaves the path and query arguments as sent, so that
/// percent-decoding happens once, in MicroHTTP, where a `%00` shows instead of silently
/// cutting the C string that libmicrohttpd hands over.
static inline size_t
minerva_mhd_keep_percent_escapes(void *context, struct MHD_Connection *connection, char *string)
{
    (void)context;
    (void)connection;
    return strlen(string);
}

/// `MHD_start_daemon` is variadic and Swift imports no variadic C function, so the
/// options travel in one `MHD_OPTION_ARRAY` built here.
static inline struct MHD_Daemon *
minerva_mhd_start(const struct minerva_mhd_settings *settings,
                  MHD_AccessHandlerCallback handler, void *handler_context,
                  MHD_RequestCompletedCallback completed, void *completed_context)
{
    struct MHD_OptionItem options[12];
    int count = 0;
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_context };
    if (settings->thread_pool_size > 1) {
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size, NULL };
    }
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)settings->connection_memory_limit, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)minerva_mhd_keep_percent_escapes, NULL };
    /* No MHD_OPTION_STRICT_FOR_CLIENT: at 1, 0.9.75 answers a missing Host with its status line
       twice and closes on a space in the URL without an answer; MicroHTTP checks both itself. */
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)settings->notify_connection,
                                                settings->callback_context };
    if (settings->address != NULL) {
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)settings->address };
    }
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(settings->flags, settings->port, settings->accept_policy, settings->callback_context,
                            handler, handler_context,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// `MHD_get_daemon_info` is variadic: this reads the port actually bound (for port 0).
static inline uint16_t
minerva_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// `MHD_get_daemon_info` is variadic: this reads how many connections are open.
static inline unsigned int
minerva_mhd_current_connections(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// `MHD_get_connection_info` is variadic: this reads a connection's socket, so that a
/// request that takes too long to arrive can be cut off from another thread.
static inline int
minerva_mhd_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// `MHD_get_connection_info` is variadic: this reads a connection's client address, so that its
/// connections are counted against its address group.
static inline const struct sockaddr *
minerva_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// `MHD_get_connection_info` is variadic: this reads the pointer kept for the connection's
/// whole life (set when `MHD_OPTION_NOTIFY_CONNECTION` reports it started).
static inline void *
minerva_mhd_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

#endif

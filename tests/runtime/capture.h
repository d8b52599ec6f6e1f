/* capture.h - an error handler for the runtime tests (gf_set_error_handler):
 * counts the reports and keeps the last status and message. */
#ifndef RT_TEST_CAPTURE_H
#define RT_TEST_CAPTURE_H

#include <gpufuse.h>
#include <stdio.h>

static int handler_calls;
static gf_status handler_status;
static char handler_msg[1024];

static inline void capture(gf_status s, const char *msg, void *user)
{
    (void)user;
    handler_calls++;
    handler_status = s;
    snprintf(handler_msg, sizeof handler_msg, "%s", msg);
}

#endif

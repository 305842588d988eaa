#ifndef CBaselineYAML_H
#define CBaselineYAML_H
#include <stddef.h>

/* What a user calling libyaml directly gets: the raw event loop over a buffer, reading every
   byte of every scalar (libyaml has already copied each into an event of its own) and building
   nothing. Returns the number of events, or -1 when libyaml reports an error; stores the total
   scalar length in *scalar_bytes_out when it is not NULL. */
long baseline_yaml_event_loop(const unsigned char *input, size_t length, size_t *scalar_bytes_out);

/* A checksum of the scalars' bytes the last loop read (keeps the reads from being optimised away). */
extern volatile unsigned baseline_yaml_checksum;

#endif

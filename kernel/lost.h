/* Scaling of the "lost" threshold to the host; see lost.c. */
#ifndef RINGLAB_KERNEL_LOST_H
#define RINGLAB_KERNEL_LOST_H

/* Measure the boot stall and set plat_lost_us(); prints one "# lost:"
 * line.  Call once, with the APs online. */
void lost_calibrate(void);

#endif

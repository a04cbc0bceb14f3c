/**
 * The lab's TCP proxy: the network links that network faults act on, since the machines the lab
 * runs on may have no {@code netem} to shape traffic with.
 */
package io.reliabilitylab.faults.network;

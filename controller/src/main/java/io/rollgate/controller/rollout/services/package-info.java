/**
 * The Services a Rollout names (docs/compatibility.md §2.3 item 1, §6): validating the references,
 * switching selectors to a ReplicaSet's pod-template hash, and releasing Services a Rollout no
 * longer uses.
 */
package io.rollgate.controller.rollout.services;

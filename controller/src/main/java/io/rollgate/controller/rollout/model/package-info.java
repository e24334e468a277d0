/**
 * Pure Rollout model code of the controller: replica maths of the canary strategies, fencepost
 * resolution and the hashes Argo Rollouts stores on Rollouts and ReplicaSets. No I/O, no Vert.x, no
 * Kubernetes client; inputs are plain numbers and small records so the reconcilers can feed them
 * from any representation of the objects.
 */
package io.rollgate.controller.rollout.model;

/**
 * Argo Rollouts notifications sent for the Events the controller records (docs/notifications.md).
 */
package io.rollgate.controller.notify;

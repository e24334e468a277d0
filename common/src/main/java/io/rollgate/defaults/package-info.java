/**
 * Defaults the controller assumes for absent fields, and parsing of the duration strings Argo
 * Rollouts accepts. Pure functions, shared by the controller and the webhook so both judge a spec
 * identically.
 */
package io.rollgate.defaults;

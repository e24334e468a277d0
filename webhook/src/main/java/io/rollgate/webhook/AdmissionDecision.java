package io.rollgate.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The answer to one AdmissionReview and how it is counted.
 *
 * @param review the response AdmissionReview
 * @param verdict {@code allowed}, {@code warned}, {@code denied}, {@code patched} or {@code
 *     ignored} (not our kind, a subresource, or an operation we do not check)
 * @param causes the number of problems in a denial (0 otherwise)
 */
public record AdmissionDecision(ObjectNode review, String verdict, int causes) {}

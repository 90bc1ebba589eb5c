/**
 * @module The GraphQL fragments the project tools share, written against GitHub's public schema
 * (https://docs.github.com/en/graphql/reference/objects#projectv2). The fake executes them against that
 * schema, so a field GitHub does not have fails in the tests.
 */

/** A field with what setting a value needs: its id and type, a single select's options, an iteration field's iterations. */
export const PROJECT_FIELD_PARTS = /* GraphQL */ `
  fragment ProjectFieldParts on ProjectV2FieldConfiguration {
    ... on ProjectV2FieldCommon { id name dataType }
    ... on ProjectV2SingleSelectField { options { id name } }
    ... on ProjectV2IterationField {
      configuration {
        iterations { id title startDate duration }
        completedIterations { id title startDate duration }
      }
    }
  }
`;

/**
 * An item: what it holds, and the values of the project's own fields (at most 100 — a project has at most
 * 50). The two `state`s are aliased: IssueState and PullRequestState may not share one response key.
 */
export const PROJECT_ITEM_PARTS = /* GraphQL */ `
  fragment ProjectItemParts on ProjectV2Item {
    type
    isArchived
    content {
      ... on Issue { number title issueState: state url repository { nameWithOwner } }
      ... on PullRequest { number title pullRequestState: state url repository { nameWithOwner } }
      ... on DraftIssue { title }
    }
    fieldValues(first: 100) {
      nodes {
        ... on ProjectV2ItemFieldTextValue { text field { ...ValueFieldName } }
        ... on ProjectV2ItemFieldNumberValue { number field { ...ValueFieldName } }
        ... on ProjectV2ItemFieldDateValue { date field { ...ValueFieldName } }
        ... on ProjectV2ItemFieldSingleSelectValue { name field { ...ValueFieldName } }
        ... on ProjectV2ItemFieldIterationValue { title field { ...ValueFieldName } }
      }
    }
  }
  fragment ValueFieldName on ProjectV2FieldCommon { name dataType }
`;

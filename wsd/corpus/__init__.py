"""Reading corpora as a stream of documents and finding the occurrences of target words and their forms."""
